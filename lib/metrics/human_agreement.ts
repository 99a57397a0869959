/**
 * Agreement between human annotators (and of an LLM judge with them) on
 * answerability labels of the CRUX human-study kind.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "./crux_defaults.ts";
import type { HumanAnnotations, Judgment } from "@lib/formats/mod.ts";
import { alignAnnotations, type AlignedItem } from "./_align_annotations.ts";
import { cohenKappa } from "./cohen_kappa.ts";
import { fleissKappa } from "./fleiss_kappa.ts";
import { randolphKappa } from "./randolph_kappa.ts";
import { type JudgeAgreement, judgeAgreement } from "./_judge_agreement.ts";

export type { JudgeAgreement };

/** Kappas over one labelling of the aligned items. */
export interface KappaSet {
  fleissKappa: number;
  randolphKappa: number;
  /** Pairwise Cohen's kappa, annotators in the order given (1 on the diagonal). */
  cohenKappa: number[][];
}

/** Result of {@linkcode humanAgreement}. NaN marks an undefined value. */
export interface HumanAgreement extends KappaSet {
  kind: "report" | "passage";
  /** Aligned (item, sub-question) labels every annotator gave. */
  items: number;
  annotators: number;
  /** Reports or passages labelled by only some annotators (left out). */
  excluded: number;
  /** Passage-level labels left out because an annotator wrote -1 (not rated). */
  unrated: number;
  /** Report-level slots left out as "NA" placeholder sub-questions (-2 in every file). */
  naSlots: number;
  /** Share of items whose majority label is positive, over items with a majority. */
  majorityPositiveRate: number;
  /** Items where the annotators split evenly (no majority). */
  ties: number;
  /** Binary confusion counts per annotator pair: [[neg/neg, neg/pos], [pos/neg, pos/pos]]. */
  pairs: { a: number; b: number; confusion: number[][] }[];
  /** Kappas on the graded 0-5 labels (passage-level files only). */
  graded?: KappaSet;
  /** The judge against the majority, when judge ratings were given. */
  judge?: JudgeAgreement;
}

/** Options of {@linkcode humanAgreement}. */
export interface HumanAgreementOptions {
  /** Rating counted as answerable (judge ratings; graded passage labels). Default 3. */
  threshold?: number;
  /** Judge ratings of the same reports (`{topic}:report`) or passages. */
  judge?: readonly Judgment[];
}

function kappas(
  items: readonly AlignedItem[],
  label: (l: number) => number,
  k: number,
  n: number,
): KappaSet {
  const table = items.map((it) => {
    const row = new Array<number>(k).fill(0);
    for (const l of it.labels) row[label(l)]++;
    return row;
  });
  const cohen = Array.from(
    { length: n },
    (_, a) =>
      Array.from({ length: n }, (_, b) =>
        a === b ? 1 : cohenKappa(
          items.map((it) => label(it.labels[a])),
          items.map((it) => label(it.labels[b])),
        )),
  );
  return {
    fleissKappa: fleissKappa(table),
    randolphKappa: randolphKappa(table),
    cohenKappa: cohen,
  };
}

/**
 * Agreement of annotators' label files: Fleiss' and Randolph's free-marginal
 * kappa over all annotators, pairwise Cohen's kappa with confusion counts,
 * majority labels (an even split is a tie and has none) and, with judge ratings,
 * the judge's precision and recall against the majority (rating >= threshold is
 * answerable) and the Spearman and Pearson correlation of human and judge coverage
 * per report. Report-level labels are 0/1; passage-level ratings 0-5 are made
 * binary at the threshold, and their graded kappas are given too.
 *
 * @param files One parsed file per annotator (at least two, of one kind).
 * @param opts `threshold` (default 3) and `judge` ratings.
 * @returns The statistics; NaN where undefined (e.g. every label the same).
 * @throws {RangeError} On fewer than two files, mixed kinds, misaligned label lists,
 *   no item every annotator labelled, or judge ratings of the wrong length.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { humanAgreement } from "@lib/metrics/mod.ts";
 * import { parseHumanAnnotations } from "@lib/formats/mod.ts";
 * const a = parseHumanAnnotations('{"id":"t1","answerability":[1,0,1]}\n', { file: "a.jsonl" });
 * const b = parseHumanAnnotations('{"id":"t1","answerability":[1,0,0]}\n', { file: "b.jsonl" });
 * assert.equal(humanAgreement([a, b]).items, 3);
 * ```
 */
export function humanAgreement(
  files: readonly HumanAnnotations[],
  opts: HumanAgreementOptions = {},
): HumanAgreement {
  const threshold = opts.threshold ?? CRUX_DEFAULTS.tau;
  const { kind, items, excluded, unrated, naSlots } = alignAnnotations(files);
  if (items.length === 0) {
    throw new RangeError(
      `Cannot compute agreement: no item is labelled by every annotator (${
        files.map((f) => f.file).join(", ")
      })`,
    );
  }
  const n = files.length;
  const binary = kind === "report" ? (l: number) => l : (l: number) => (l >= threshold ? 1 : 0);
  const base = kappas(items, binary, 2, n);
  let positive = 0, ties = 0;
  const majority = items.map((it) => {
    const pos = it.labels.filter((l) => binary(l) === 1).length;
    if (pos * 2 === n) {
      ties++;
      return undefined;
    }
    if (pos * 2 > n) positive++;
    return pos * 2 > n;
  });
  const pairs: HumanAgreement["pairs"] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const confusion = [[0, 0], [0, 0]];
      for (const it of items) confusion[binary(it.labels[a])][binary(it.labels[b])]++;
      pairs.push({ a, b, confusion });
    }
  }
  const out: HumanAgreement = {
    kind,
    items: items.length,
    annotators: n,
    excluded,
    unrated,
    naSlots,
    ...base,
    majorityPositiveRate: positive / (items.length - ties),
    ties,
    pairs,
  };
  if (kind === "passage") out.graded = kappas(items, (l) => l, 6, n);
  if (opts.judge) out.judge = judgeAgreement(items, majority, opts.judge, { threshold, kind });
  return out;
}
