/**
 * Agreement of annotators on sub-question types (core / background / follow-up),
 * from typed decomposition files, one per annotator, and of a judge with their
 * majority.
 *
 * @module
 */
import { type Decomposition, SUBQUESTION_TYPES, type TypedSubquestion } from "@lib/formats/mod.ts";
import { cohenKappa } from "./cohen_kappa.ts";
import { type KappaSet, kappaSet } from "./_kappa_set.ts";

type SubquestionType = TypedSubquestion["type"];

/** The judge's types against the annotators' majority. NaN marks an undefined value. */
export interface TypeJudgeAgreement {
  /** Items with a majority type that the judge typed too. */
  items: number;
  /** Share of those where the judge's type is the majority's. */
  accuracy: number;
  /** Cohen's kappa of the judge and the majority over the same items. */
  kappa: number;
  /** Majority type -> judge type -> items. */
  confusion: Record<SubquestionType, Record<SubquestionType, number>>;
  /** Items with a majority that the judge's file does not hold (left out). */
  missing: number;
}

/** Result of {@linkcode subquestionTypeAgreement}. NaN marks an undefined value. */
export interface TypeAgreement extends KappaSet {
  kind: "types";
  annotators: number;
  /** Complex questions holding at least one item. */
  questions: number;
  /** Sub-questions typed by two annotators or more. */
  items: number;
  /** Of those, the sub-questions every annotator typed (Fleiss' and Randolph's kappa). */
  completeItems: number;
  /** Sub-questions only one annotator typed (left out). */
  singleItems: number;
  /** Sub-questions listed twice under one question in one file (the first kept). */
  duplicates: number;
  /** Sub-questions an annotator listed without a type (left out of their labels). */
  untyped: number;
  /** Labels per type over the items. */
  typeCounts: Record<SubquestionType, number>;
  /** Share of agreeing labels per annotator pair over the items both typed. */
  pairs: { a: number; b: number; items: number; agreement: number }[];
  /** Items whose most frequent type is unique. */
  majorityItems: number;
  /** Items where two types tie for most frequent (no majority). */
  ties: number;
  /**
   * Each annotator against the majority of the others (over the items two others
   * typed with a unique most frequent type), and the mean: a human baseline for the
   * judge's accuracy. NaN where no item qualifies.
   */
  annotatorAccuracy: number[];
  annotatorAccuracyMean: number;
  /** The judge against the majority, when a judge's file was given. */
  judge?: TypeJudgeAgreement;
}

/**
 * Text as aligned: Unicode-normalised, lowercase, runs of whitespace as one
 * space, leading and trailing spaces and punctuation removed.
 */
function normalise(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ")
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, "");
}

/** (question, sub-question) key -> type, per file; duplicates counted. */
function index(file: readonly Decomposition[], onDuplicate: () => void) {
  const out = new Map<string, SubquestionType>();
  for (const d of file) {
    const q = normalise(d.question);
    for (const s of d.subQuestions) {
      const key = `${q}\0${normalise(s.text)}`;
      if (out.has(key)) onDuplicate();
      else out.set(key, s.type);
    }
  }
  return out;
}

/** The unique most frequent type of a list, or undefined on a tie. */
function majorityOf(types: readonly number[]): number | undefined {
  const counts = new Array<number>(SUBQUESTION_TYPES.length).fill(0);
  for (const t of types) counts[t]++;
  const top = Math.max(...counts);
  return counts.filter((c) => c === top).length === 1 ? counts.indexOf(top) : undefined;
}

/**
 * Agreement on sub-question types. Items are aligned by (question, sub-question)
 * text after normalising case, whitespace and surrounding punctuation; an
 * annotator may type any subset. Reported: Fleiss' and Randolph's kappa over the
 * items every annotator typed, pairwise Cohen's kappa and raw agreement over the
 * items each pair typed, Krippendorff's alpha (nominal) over every item typed
 * twice or more, each annotator's accuracy against the majority of the others (a
 * human baseline), and with a judge's file its accuracy and Cohen's kappa against
 * the majority (the unique most frequent type; ties have none).
 *
 * @param files One parsed decomposition file per annotator (at least two).
 * @param opts `judge`: the judge's decompositions of the same questions.
 * @returns The statistics.
 * @throws {RangeError} On fewer than two files or no sub-question typed by two annotators.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subquestionTypeAgreement } from "@lib/metrics/mod.ts";
 * const file = (t1: "core" | "background", t2: "core" | "follow-up") => [{
 *   question: "Q?",
 *   subQuestions: [{ text: "a?", type: t1 }, { text: "b?", type: t2 }],
 * }];
 * const r = subquestionTypeAgreement([file("core", "core"), file("core", "follow-up")]);
 * assert.equal(r.items, 2);
 * assert.equal(r.pairs[0].agreement, 0.5);
 * ```
 */
export function subquestionTypeAgreement(
  files: readonly (readonly Decomposition[])[],
  opts: { judge?: readonly Decomposition[] } = {},
): TypeAgreement {
  if (files.length < 2) {
    throw new RangeError(
      `Cannot compute agreement: need at least 2 annotator files, got ${files.length}`,
    );
  }
  let duplicates = 0;
  const maps = files.map((f) => index(f, () => duplicates++));
  const keys = [...new Set(maps.flatMap((m) => [...m.keys()]))];
  const code = new Map(SUBQUESTION_TYPES.map((t, i) => [t as SubquestionType, i]));
  const all = keys.map((key) => {
    const raters = maps.flatMap((m, a) => (m.has(key) ? [a] : []));
    return { key, raters, labels: raters.map((a) => code.get(maps[a].get(key)!)!) };
  });
  const items = all.filter((it) => it.labels.length >= 2);
  if (items.length === 0) {
    throw new RangeError(
      "Cannot compute agreement: no sub-question is typed by two annotators " +
        "(items are aligned by question and sub-question text)",
    );
  }
  const n = files.length;
  const k = SUBQUESTION_TYPES.length;
  const base = kappaSet(items, n, k, false);
  const pairs: TypeAgreement["pairs"] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let same = 0, both = 0;
      for (const it of items) {
        const i = it.raters.indexOf(a), j = it.raters.indexOf(b);
        if (i < 0 || j < 0) continue;
        both++;
        if (it.labels[i] === it.labels[j]) same++;
      }
      pairs.push({ a, b, items: both, agreement: both ? same / both : NaN });
    }
  }
  const typeCounts = Object.fromEntries(SUBQUESTION_TYPES.map((t) => [t, 0])) as Record<
    SubquestionType,
    number
  >;
  for (const it of items) for (const l of it.labels) typeCounts[SUBQUESTION_TYPES[l]]++;
  const majorities = items.map((it) => majorityOf(it.labels));
  const annotatorAccuracy = Array.from({ length: n }, (_, a) => {
    let right = 0, compared = 0;
    for (const it of items) {
      const i = it.raters.indexOf(a);
      if (i < 0 || it.labels.length < 3) continue;
      const m = majorityOf(it.labels.filter((_, j) => j !== i));
      if (m === undefined) continue;
      compared++;
      if (it.labels[i] === m) right++;
    }
    return compared ? right / compared : NaN;
  });
  const defined = annotatorAccuracy.filter((x) => !Number.isNaN(x));
  const out: TypeAgreement = {
    kind: "types",
    annotators: n,
    questions: new Set(items.map((it) => it.key.split("\0")[0])).size,
    items: items.length,
    completeItems: items.filter((it) => it.labels.length === n).length,
    singleItems: all.length - items.length,
    duplicates,
    untyped: files.reduce((s, f) => s + f.reduce((t, d) => t + (d.untyped?.length ?? 0), 0), 0),
    typeCounts,
    ...base,
    pairs,
    majorityItems: majorities.filter((m) => m !== undefined).length,
    ties: majorities.filter((m) => m === undefined).length,
    annotatorAccuracy,
    annotatorAccuracyMean: defined.length
      ? defined.reduce((x, y) => x + y, 0) / defined.length
      : NaN,
  };
  if (opts.judge) {
    const judge = index(opts.judge, () => {});
    const confusion = Object.fromEntries(
      SUBQUESTION_TYPES.map((t) => [t, Object.fromEntries(SUBQUESTION_TYPES.map((u) => [u, 0]))]),
    ) as TypeJudgeAgreement["confusion"];
    const human: number[] = [], machine: number[] = [];
    let missing = 0;
    items.forEach((it, i) => {
      const m = majorities[i];
      if (m === undefined) return;
      const j = judge.get(it.key);
      if (j === undefined) return void missing++;
      human.push(m);
      machine.push(code.get(j)!);
      confusion[SUBQUESTION_TYPES[m]][j]++;
    });
    const right = human.filter((h, i) => h === machine[i]).length;
    out.judge = {
      items: human.length,
      accuracy: human.length ? right / human.length : NaN,
      kappa: human.length ? cohenKappa(human, machine) : NaN,
      confusion,
      missing,
    };
  }
  return out;
}
