/**
 * Agreement between human annotators (and of an LLM judge with them) on
 * answerability labels of the CRUX human-study kind.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "./crux_defaults.ts";
import type { HumanAnnotations, Judgment } from "@lib/formats/mod.ts";
import { alignAnnotations } from "./_align_annotations.ts";
import { type KappaSet, kappaSet } from "./_kappa_set.ts";
import { type JudgeAgreement, judgeAgreement } from "./_judge_agreement.ts";

export type { JudgeAgreement, KappaSet };

/** Result of {@linkcode humanAgreement}. NaN marks an undefined value. */
export interface HumanAgreement extends KappaSet {
  kind: "report" | "passage";
  /** Aligned (item, sub-question) labels given by two annotators or more. */
  items: number;
  /** Of those, the items every annotator labelled (Fleiss' and Randolph's kappa). */
  completeItems: number;
  /** Items only one annotator labelled (left out). */
  singleItems: number;
  annotators: number;
  /** Reports or passages labelled by only some annotators. */
  excluded: number;
  /** Passage-level sub-questions some annotator of the passage did not rate (-1). */
  unrated: number;
  /** Report-level slots left out as "NA" placeholder sub-questions (-2 in every file). */
  naSlots: number;
  /** Share of items whose majority label is positive, over items with a majority. */
  majorityPositiveRate: number;
  /** Items where the annotators split evenly (no majority). */
  ties: number;
  /**
   * Binary confusion counts per annotator pair over the items both labelled:
   * [[neg/neg, neg/pos], [pos/neg, pos/pos]].
   */
  pairs: { a: number; b: number; items: number; confusion: number[][] }[];
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

/**
 * Agreement of annotators' label files, complete or incomplete designs (each
 * annotator labelling any subset of the items): Fleiss' and Randolph's
 * free-marginal kappa over the items every annotator labelled, pairwise Cohen's
 * kappa with confusion counts over the items both labelled, Krippendorff's
 * alpha over every item with two labels or more,
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
 *   no item two annotators labelled, or judge ratings of the wrong length.
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
  const aligned = alignAnnotations(files);
  const { kind, excluded, unrated, naSlots } = aligned;
  const items = aligned.items.filter((it) => it.labels.length >= 2);
  if (items.length === 0) {
    throw new RangeError(
      `Cannot compute agreement: no item is labelled by two annotators (${
        files.map((f) => f.file).join(", ")
      })`,
    );
  }
  const n = files.length;
  const binary = kind === "report" ? (l: number) => l : (l: number) => (l >= threshold ? 1 : 0);
  const base = kappaSet(
    items.map((it) => ({ labels: it.labels.map(binary), raters: it.raters })),
    n,
    2,
    true,
  );
  let positive = 0, ties = 0;
  const majority = items.map((it) => {
    const m = it.labels.length;
    const pos = it.labels.filter((l) => binary(l) === 1).length;
    if (pos * 2 === m) {
      ties++;
      return undefined;
    }
    if (pos * 2 > m) positive++;
    return pos * 2 > m;
  });
  const pairs: HumanAgreement["pairs"] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const confusion = [[0, 0], [0, 0]];
      for (const it of items) {
        const i = it.raters.indexOf(a), j = it.raters.indexOf(b);
        if (i >= 0 && j >= 0) confusion[binary(it.labels[i])][binary(it.labels[j])]++;
      }
      pairs.push({ a, b, items: base.shared[a][b], confusion });
    }
  }
  const out: HumanAgreement = {
    kind,
    items: items.length,
    completeItems: items.filter((it) => it.labels.length === n).length,
    singleItems: aligned.items.length - items.length,
    annotators: n,
    excluded,
    unrated,
    naSlots,
    ...base,
    majorityPositiveRate: positive / (items.length - ties),
    ties,
    pairs,
  };
  if (kind === "passage") out.graded = kappaSet(items, n, 6, true);
  if (opts.judge) out.judge = judgeAgreement(items, majority, opts.judge, { threshold, kind });
  return out;
}
