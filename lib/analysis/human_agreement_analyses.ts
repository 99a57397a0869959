/**
 * How far annotators agree, and how far an LLM judge agrees with them: tables
 * of kappas and confusion counts, and per-topic coverage of the judge against
 * each annotator.
 *
 * @module
 */
import type { HumanAnnotations, Judgment } from "@lib/formats/mod.ts";
import { CRUX_DEFAULTS, type HumanAgreement, humanAgreement } from "@lib/metrics/mod.ts";
import { backendNote, naturalCompare, table, topicChart } from "@lib/report/mod.ts";
import { tableCells } from "./table_cells.ts";
import type { Analysis } from "./types.ts";

/** Options of {@linkcode humanAgreementAnalyses}. */
export interface HumanAgreementAnalysesOptions {
  /** Judge ratings of the labelled reports (see `humanAgreementJudge`). */
  judge?: readonly Judgment[];
  /** Name of the judge, for labels and the backend note. */
  judgeName?: string;
  /** Rating counted as answerable. Default 3. */
  threshold?: number;
  /** Annotator display names. Default: `A1`, `A2`, ... */
  names?: readonly string[];
}

/** Data of the human agreement analyses. */
export interface HumanAgreementAnalysesData {
  agreement: HumanAgreement;
  /** Coverage per report: each annotator's share of positive labels and the judge's share rated >= threshold. */
  coverage: { topicId: string; rater: string; value: number }[];
}

const num = (v: number) => (Number.isFinite(v) ? v : null);

/** Report coverage per topic and rater (report-level files only). */
function coverage(
  files: readonly HumanAnnotations[],
  names: readonly string[],
  judge: readonly Judgment[] | undefined,
  judgeName: string,
  threshold: number,
): HumanAgreementAnalysesData["coverage"] {
  const out: HumanAgreementAnalysesData["coverage"] = [];
  // Real slots per topic: "NA" placeholder slots (-2) are no items, in coverage neither.
  const slots = new Map<string, number[]>();
  files.forEach((f, k) => {
    if (f.kind !== "report") return;
    for (const it of f.items) {
      const real = it.answerability.flatMap((x, q) => (x === -2 ? [] : [q]));
      if (!real.length) continue;
      slots.set(it.topicId, real);
      const v = real.filter((q) => it.answerability[q] === 1).length / real.length;
      out.push({ topicId: it.topicId, rater: names[k], value: v });
    }
  });
  for (const j of judge ?? []) {
    const real = slots.get(j.topicId);
    if (
      real === undefined ||
      !(j.itemId === `${j.topicId}:report` || j.itemId.startsWith(`${j.topicId}:report:`))
    ) continue;
    out.push({
      topicId: j.topicId,
      rater: judgeName,
      value: real.filter((q) => (j.ratings[q] ?? -1) >= threshold).length / real.length,
    });
  }
  return out.sort((a, b) => naturalCompare(a.topicId, b.topicId));
}

/**
 * Agreement of annotators' label files (CRUX human-study formats) and of a
 * judge with their majority, as `human_agreement` (Fleiss' and Randolph's
 * kappa, pairwise Cohen's kappa, majority positive rate, and the judge's
 * precision, recall, F1, kappa and coverage correlations), `human_confusion`
 * (confusion counts per annotator pair and of the judge against the
 * majority) and, for report-level labels with judge ratings,
 * `human_topic_coverage` (the judge's coverage per topic as a line, each
 * annotator's as markers; a table of the same values).
 *
 * @param files One parsed file per annotator.
 * @param opts Judge ratings and name, `threshold` (3), annotator names.
 * @returns The analyses (they share `data`).
 * @throws {RangeError} As `humanAgreement`.
 * @example
 * ```ts
 * import { humanAgreementAnalyses } from "@lib/analysis/mod.ts";
 * import { parseHumanAnnotations } from "@lib/formats/mod.ts";
 * const a = parseHumanAnnotations('{"id":"t1","answerability":[1,0,1]}\n', { file: "a.jsonl" });
 * const b = parseHumanAnnotations('{"id":"t1","answerability":[1,0,0]}\n', { file: "b.jsonl" });
 * humanAgreementAnalyses([a, b])[0].table!.rows.length;
 * ```
 */
export function humanAgreementAnalyses(
  files: readonly HumanAnnotations[],
  opts: HumanAgreementAnalysesOptions = {},
): Analysis<HumanAgreementAnalysesData>[] {
  const threshold = opts.threshold ?? CRUX_DEFAULTS.tau;
  const names = opts.names ?? files.map((_, i) => `A${i + 1}`);
  const judgeName = opts.judgeName ?? "judge";
  const agreement = humanAgreement(files, { threshold, judge: opts.judge });
  const data = { agreement, coverage: coverage(files, names, opts.judge, judgeName, threshold) };
  const notes = [
    `${agreement.items} ${agreement.kind}-level labels by ${agreement.annotators} annotators (${
      names.join(", ")
    }); ` +
    `${agreement.excluded} ${agreement.kind}s not labelled by all left out; ${agreement.ties} even splits without a majority` +
    (agreement.naSlots
      ? `; ${agreement.naSlots} NA slots (placeholder sub-questions) left out`
      : ""),
    ...(opts.judge
      ? [`${backendNote({ judge: judgeName })}; answerable at rating >= ${threshold}`]
      : []),
  ];
  const stats: [string, number | null][] = [
    ["Fleiss' kappa", num(agreement.fleissKappa)],
    ["Randolph's free-marginal kappa", num(agreement.randolphKappa)],
    ...agreement.pairs.map((p): [string, number | null] => [
      `Cohen's kappa ${names[p.a]}-${names[p.b]}`,
      num(agreement.cohenKappa[p.a][p.b]),
    ]),
    ["Majority positive rate", num(agreement.majorityPositiveRate)],
  ];
  const j = agreement.judge;
  if (j) {
    stats.push(
      [`${judgeName} precision vs majority`, num(j.precision)],
      [`${judgeName} recall vs majority`, num(j.recall)],
      [`${judgeName} F1 vs majority`, num(j.f1)],
      [`${judgeName} kappa vs majority`, num(j.kappa)],
      [`Coverage Spearman (${j.reports} reports)`, num(j.spearman)],
      [`Coverage Pearson (${j.reports} reports)`, num(j.pearson)],
    );
  }
  const out: Analysis<HumanAgreementAnalysesData>[] = [{
    name: "human_agreement",
    data,
    table: table({
      caption: "Agreement between annotators, and of the judge with their majority",
      rowHeader: "Statistic",
      columns: [{ key: "value", label: "Value" }],
      rows: stats.map(([label, value]) => ({ label, values: { value } })),
      notes,
    }),
  }];
  const confusion = agreement.pairs.map((p) => ({
    label: `${names[p.a]} (row) vs ${names[p.b]}`,
    values: {
      nn: p.confusion[0][0],
      np: p.confusion[0][1],
      pn: p.confusion[1][0],
      pp: p.confusion[1][1],
    },
  }));
  if (j) {
    confusion.push({
      label: `${judgeName} (row) vs majority`,
      values: { nn: j.confusion.tn, np: j.confusion.fn, pn: j.confusion.fp, pp: j.confusion.tp },
    });
  }
  out.push({
    name: "human_confusion",
    data,
    table: table({
      caption: "Confusion counts of binary answerability (0 = not answered, 1 = answered)",
      rowHeader: "Pair",
      columns: ["nn:0/0", "np:0/1", "pn:1/0", "pp:1/1"].map((c) => {
        const [key, label] = c.split(":");
        return { key, label, decimals: 0 };
      }),
      rows: confusion,
      notes,
    }),
  });
  if (agreement.kind === "report" && j) {
    const topics = [...new Set(data.coverage.map((c) => c.topicId))];
    const raters = [judgeName, ...names];
    out.push({
      name: "human_topic_coverage",
      data,
      figure: topicChart(
        data.coverage.filter((c) => c.rater === judgeName).map((c) => ({
          topicId: c.topicId,
          run: `${judgeName} (>= ${threshold})`,
          value: c.value,
        })),
        {
          title: "Report coverage per topic: judge and annotators",
          subtitle: `line: ${judgeName}; diamonds: ${names.length} annotators`,
          note: notes[1],
          human: data.coverage.filter((c) => c.rater !== judgeName),
          humanLabel: "annotators",
        },
      ),
      table: table({
        caption: "Report coverage per topic by rater",
        rowHeader: "Topic",
        columns: raters.map((r) => ({ key: r, label: r })),
        rows: topics.map((t) => ({
          label: t,
          values: Object.fromEntries(
            raters.map((r) => [
              r,
              data.coverage.find((c) => c.topicId === t && c.rater === r)?.value ?? null,
            ]),
          ),
        })),
        notes,
      }),
    });
  }
  // Statistics and counts of the label files given; no stored measure row holds them.
  return out.map((a) => ({
    ...a,
    cells: tableCells(a.table!, (row, column) => ({
      derived: `${row.label} / ${column}, from the human label files`,
      inputs: [],
      reason: "undefined for these labels",
    })),
  }));
}
