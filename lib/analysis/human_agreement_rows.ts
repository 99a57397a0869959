/**
 * The measure rows of a human study (source `human-study`, method `crux`): per
 * report, each annotator's coverage and the judge's; over the labelled topics,
 * the agreement between annotators (Fleiss', Randolph's and Cohen's kappas,
 * Krippendorff's alpha, confusion counts) and of the judge with their
 * majority, with the counts the tables' notes state. The
 * `measure:human-agreement` stage stores them; `humanAgreementAnalyses` shows them.
 *
 * @module
 */
import type { HumanAnnotations, Judgment } from "@lib/formats/mod.ts";
import { CRUX_DEFAULTS, formatTopicSet, humanAgreement } from "@lib/metrics/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import type { MeasureRow } from "@lib/types/mod.ts";

/** The source of a human study's rows. */
export const HUMAN_STUDY_SOURCE = "human-study";

/** Stored measure names of a human study; `tau` names carry the judge's threshold. */
export const STUDY = {
  /** Per report: an annotator's share of positive labels over the real slots. */
  coverage: "study_coverage",
  /** Per report: the judge's share of real slots rated >= tau. */
  judgeCoverage: (tau: number) => `study_coverage(tau=${tau})`,
  fleiss: "study_fleiss_kappa",
  randolph: "study_randolph_kappa",
  alpha: "study_krippendorff_alpha",
  majority: "study_majority_positive_rate",
  /** 1 for report-level labels, 0 for passage-level ones. */
  reportLevel: "study_report_level",
  items: "study_items",
  annotators: "study_annotators",
  excluded: "study_excluded",
  ties: "study_ties",
  naSlots: "study_na_slots",
  /** Per annotator pair (judge `A1-A2`). */
  cohen: "study_cohen_kappa",
  /** Per pair: confusion count of (row label, column label), e.g. `study_confusion_01`. */
  confusion: (a: 0 | 1, b: 0 | 1) => `study_confusion_${a}${b}`,
  /** Of the judge against the majority (judge = the judge's name). */
  judge: (stat: JudgeStat, tau: number) => `study_judge_${stat}(tau=${tau})`,
} as const;

/** The judge's statistics against the majority, as stored. */
export type JudgeStat =
  | "precision"
  | "recall"
  | "f1"
  | "kappa"
  | "tp"
  | "fp"
  | "fn"
  | "tn"
  | "reports"
  | "spearman"
  | "pearson";

/** Options of {@linkcode humanAgreementRows}. */
export interface HumanAgreementRowsOptions {
  /** Generation run whose reports were labelled (the rows' `run`). */
  run: string;
  /** Judge ratings of the labelled reports (see `humanAgreementJudge`). */
  judge?: readonly Judgment[];
  /** Name of the judge (the judge rows' `judge`). Default `judge`. */
  judgeName?: string;
  /** Rating counted as answerable. Default 3. */
  threshold?: number;
}

/** The annotator names of a study: `A1`, `A2`, ... in file order. */
export const annotatorName = (k: number): string => `A${k + 1}`;

/**
 * The rows of a human study: undefined statistics (NaN) are stored as NULL,
 * so a view shows them blank with a reason.
 *
 * @param files One parsed file per annotator (at least two, of one kind).
 * @param opts The labelled run, judge ratings and name, threshold.
 * @returns Rows for `writeMeasures`.
 * @throws {RangeError} As `humanAgreement`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { humanAgreementRows, STUDY } from "@lib/analysis/human_agreement_rows.ts";
 * import { parseHumanAnnotations } from "@lib/formats/mod.ts";
 * const a = parseHumanAnnotations('{"id":"t1","answerability":[1,0,1]}\n', { file: "a.jsonl" });
 * const b = parseHumanAnnotations('{"id":"t1","answerability":[1,0,0]}\n', { file: "b.jsonl" });
 * const rows = humanAgreementRows([a, b], { run: "oracle-result" });
 * assert.equal(rows.find((r) => r.measure === STUDY.items)?.value, 3);
 * ```
 */
export function humanAgreementRows(
  files: readonly HumanAnnotations[],
  opts: HumanAgreementRowsOptions,
): (Omit<MeasureRow, "value"> & { value: number | null })[] {
  const threshold = opts.threshold ?? CRUX_DEFAULTS.tau;
  const judgeName = opts.judgeName ?? "judge";
  const agreement = humanAgreement(files, { threshold, judge: opts.judge });
  // The topics labelled by two annotators or more: the set the agreement is over.
  const seen = new Map<string, number>();
  for (const f of files) {
    for (const t of new Set(f.items.map((it) => it.topicId))) seen.set(t, (seen.get(t) ?? 0) + 1);
  }
  const n = [...seen.values()].filter((c) => c >= 2).length;
  const base = { run: opts.run, method: "crux", source: HUMAN_STUDY_SOURCE };
  const num = (v: number) => (Number.isFinite(v) ? v : null);
  const overall = (measure: string, value: number, judge = "") =>
    measureRow<number | null>({
      ...base,
      topicId: "all",
      measure,
      judge,
      value: num(value),
      topics: n,
      topicSet: formatTopicSet({ kind: "scored", n }),
    });
  const perTopic = (topicId: string, measure: string, judge: string, value: number) =>
    measureRow<number | null>({
      ...base,
      topicId,
      measure,
      judge,
      value,
      topicSet: formatTopicSet({ kind: "topic", id: topicId }),
    });
  const out = [
    overall(STUDY.fleiss, agreement.fleissKappa),
    overall(STUDY.randolph, agreement.randolphKappa),
    overall(STUDY.alpha, agreement.krippendorffAlpha.nominal),
    overall(STUDY.majority, agreement.majorityPositiveRate),
    overall(STUDY.reportLevel, agreement.kind === "report" ? 1 : 0),
    overall(STUDY.items, agreement.items),
    overall(STUDY.annotators, agreement.annotators),
    overall(STUDY.excluded, agreement.excluded),
    overall(STUDY.ties, agreement.ties),
    overall(STUDY.naSlots, agreement.naSlots),
  ];
  for (const p of agreement.pairs) {
    const pair = `${annotatorName(p.a)}-${annotatorName(p.b)}`;
    out.push(overall(STUDY.cohen, agreement.cohenKappa[p.a][p.b], pair));
    for (const a of [0, 1] as const) {
      for (const b of [0, 1] as const) {
        out.push(overall(STUDY.confusion(a, b), p.confusion[a][b], pair));
      }
    }
  }
  const j = agreement.judge;
  if (j) {
    const stats: [JudgeStat, number][] = [
      ["precision", j.precision],
      ["recall", j.recall],
      ["f1", j.f1],
      ["kappa", j.kappa],
      ["tp", j.confusion.tp],
      ["fp", j.confusion.fp],
      ["fn", j.confusion.fn],
      ["tn", j.confusion.tn],
      ["reports", j.reports],
      ["spearman", j.spearman],
      ["pearson", j.pearson],
    ];
    for (const [stat, v] of stats) out.push(overall(STUDY.judge(stat, threshold), v, judgeName));
  }
  // Report coverage per topic: "NA" placeholder slots (-2) are no items, in coverage neither.
  const slots = new Map<string, number[]>();
  files.forEach((f, k) => {
    if (f.kind !== "report") return;
    for (const it of f.items) {
      const real = it.answerability.flatMap((x, q) => (x === -2 ? [] : [q]));
      if (!real.length) continue;
      slots.set(it.topicId, real);
      const v = real.filter((q) => it.answerability[q] === 1).length / real.length;
      out.push(perTopic(it.topicId, STUDY.coverage, annotatorName(k), v));
    }
  });
  for (const r of opts.judge ?? []) {
    const real = slots.get(r.topicId);
    if (
      real === undefined ||
      !(r.itemId === `${r.topicId}:report` || r.itemId.startsWith(`${r.topicId}:report:`))
    ) continue;
    const v = real.filter((q) => (r.ratings[q] ?? -1) >= threshold).length / real.length;
    out.push(perTopic(r.topicId, STUDY.judgeCoverage(threshold), judgeName, v));
  }
  return out;
}
