/**
 * How far annotators agree, and how far an LLM judge agrees with them: tables
 * of kappas and confusion counts, and per-topic coverage of the judge against
 * each annotator - a view of the rows the `measure:human-agreement` stage
 * stored (source `human-study`), blank with the reason where none is stored.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { backendNote, naturalCompare, table, topicChart } from "@lib/report/mod.ts";
import {
  meanTopicId,
  type MeasureValueRow,
  readMeasures,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import { annotatorName, HUMAN_STUDY_SOURCE, STUDY } from "./human_agreement_rows.ts";
import { tableCells } from "./table_cells.ts";
import type { Analysis, CellKey } from "./types.ts";

/** Options of {@linkcode humanAgreementAnalyses}. */
export interface HumanAgreementAnalysesOptions {
  /** Generation run whose reports the annotators labelled. Default `oracle-result`. */
  run?: string;
}

/** Data of the human agreement analyses. */
export interface HumanAgreementAnalysesData {
  /** The stored rows of the study's run (source `human-study`). */
  rows: MeasureValueRow[];
  /** Report coverage per topic and rater, as stored. */
  coverage: { topicId: string; rater: string; value: number }[];
}

/** The reason of a blank whose row the stage has not stored. */
const NOT_STORED =
  "not stored: the measure:human-agreement stage has not run (name the study in analysis.humanStudy)";
const UNDEFINED = "undefined for these labels (stored as no value)";

/** Where a cell's value is stored: measure, judge and topic of the study's rows. */
interface Ref {
  measure: string;
  judge: string;
  topicId?: string;
  /** The reason when no such row is stored. Default: the stage has not run. */
  absent?: string;
}

/**
 * The human study's tables, read from its stored rows: `human_agreement`
 * (Fleiss', Randolph's and pairwise Cohen's kappa, Krippendorff's alpha, the
 * majority positive rate, and the judge's precision, recall, F1, kappa and
 * coverage correlations against the majority), `human_confusion` (confusion
 * counts per annotator pair and of the judge against the majority) and, for
 * report-level labels with judge ratings, `human_topic_coverage` (the judge's
 * coverage per topic as a line, each annotator's as markers; a table of the
 * same values). Each numeric cell names its stored row; when the stage has
 * stored nothing, `human_agreement` alone, blank with the reason.
 *
 * @param ws The workspace.
 * @param opts `run`, the labelled run (default `oracle-result`).
 * @returns The analyses (they share `data`).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { humanAgreementAnalyses } from "@lib/analysis/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * const [a] = await humanAgreementAnalyses(ws);
 * assert.match(a.cells![0].reason!, /^not stored/);
 * ws.close();
 * ```
 */
export async function humanAgreementAnalyses(
  ws: WorkspaceLike,
  opts: HumanAgreementAnalysesOptions = {},
): Promise<Analysis<HumanAgreementAnalysesData>[]> {
  const run = opts.run ?? "oracle-result";
  const rows = await readMeasures(ws, { source: HUMAN_STUDY_SOURCE, method: "crux", run });
  const stored = new Map(rows.map((r) => [`${r.measure}|${r.judge}|${r.topicId}`, r]));
  const find = (ref: Ref) => stored.get(`${ref.measure}|${ref.judge}|${ref.topicId ?? "all"}`);
  const value = (ref: Ref) => find(ref)?.value ?? null;
  const count = (measure: string) => value({ measure, judge: "" });
  // The judge and its threshold, from the names of its stored rows.
  let judgeName: string | undefined, tau = CRUX_DEFAULTS.tau;
  for (const r of rows) {
    const m = /^study_judge_precision\(tau=(\d+)\)$/.exec(r.measure);
    if (m && r.topicId === "all") [judgeName, tau] = [r.judge, Number(m[1])];
  }
  const n = count(STUDY.annotators) ?? 0;
  const names = Array.from({ length: n }, (_, k) => annotatorName(k));
  const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b) => `${a}-${b}`));
  const coverage = rows.filter((r) =>
    !meanTopicId.is(r.topicId) && r.value !== null && (
      r.measure === STUDY.coverage || r.measure === STUDY.judgeCoverage(tau)
    )
  ).map((r) => ({ topicId: r.topicId, rater: r.judge, value: r.value! }))
    .sort((a, b) => naturalCompare(a.topicId, b.topicId));
  const data = { rows, coverage };
  const refs = new Map<string, Record<string, Ref>>();
  const cells = (t: NonNullable<Analysis["table"]>) =>
    tableCells(t, (row, column) => {
      const ref = refs.get(`${t.caption}|${row.label}`)?.[column];
      if (!ref) return { reason: NOT_STORED };
      const r = find(ref);
      if (!r) return { reason: ref.absent ?? NOT_STORED };
      if (r.value === null) return { reason: UNDEFINED };
      const key: CellKey = {
        run,
        source: HUMAN_STUDY_SOURCE,
        judge: r.judge,
        measure: r.measure,
        topicId: r.topicId,
        topicSet: r.topicSet,
      };
      return { key };
    });
  const row = (caption: string, label: string, cols: Record<string, Ref>) => {
    refs.set(`${caption}|${label}`, cols);
    return {
      label,
      values: Object.fromEntries(Object.entries(cols).map(([c, ref]) => [c, value(ref)])),
    };
  };
  const items = count(STUDY.items);
  const notes = rows.length
    ? [
      `${items} ${
        count(STUDY.reportLevel) ? "report" : "passage"
      }-level labels by ${n} annotators (${names.join(", ")}) of run ${run}; ${
        count(STUDY.excluded)
      } not labelled by all left out; ${count(STUDY.ties)} even splits without a majority` +
      (count(STUDY.naSlots)
        ? `; ${count(STUDY.naSlots)} NA slots (placeholder sub-questions) left out`
        : ""),
      ...(judgeName
        ? [`${backendNote({ judge: judgeName })}; answerable at rating >= ${tau}`]
        : []),
    ]
    : [NOT_STORED];
  const statsCaption = "Agreement between annotators, and of the judge with their majority";
  const stat = (label: string, measure: string, judge = "") =>
    row(statsCaption, label, { value: { measure, judge } });
  const stats = [
    stat("Fleiss' kappa", STUDY.fleiss),
    stat("Randolph's free-marginal kappa", STUDY.randolph),
    stat("Krippendorff's alpha (nominal)", STUDY.alpha),
    ...pairs.map((p) => stat(`Cohen's kappa ${p}`, STUDY.cohen, p)),
    stat("Majority positive rate", STUDY.majority),
  ];
  if (judgeName) {
    const j = (s: Parameters<typeof STUDY.judge>[0]) => STUDY.judge(s, tau);
    const reports = value({ measure: j("reports"), judge: judgeName });
    stats.push(
      stat(`${judgeName} precision vs majority`, j("precision"), judgeName),
      stat(`${judgeName} recall vs majority`, j("recall"), judgeName),
      stat(`${judgeName} F1 vs majority`, j("f1"), judgeName),
      stat(`${judgeName} kappa vs majority`, j("kappa"), judgeName),
      stat(`Coverage Spearman (${reports} reports)`, j("spearman"), judgeName),
      stat(`Coverage Pearson (${reports} reports)`, j("pearson"), judgeName),
    );
  }
  const statsTable = table({
    caption: statsCaption,
    rowHeader: "Statistic",
    columns: [{ key: "value", label: "Value" }],
    rows: stats,
    notes,
  });
  const out: Analysis<HumanAgreementAnalysesData>[] = [{
    name: "human_agreement",
    data,
    table: statsTable,
    cells: cells(statsTable),
  }];
  if (!rows.length) return out;
  const confCaption = "Confusion counts of binary answerability (0 = not answered, 1 = answered)";
  const confusion = pairs.map((p) =>
    row(confCaption, `${p.replace("-", " (row) vs ")}`, {
      nn: { measure: STUDY.confusion(0, 0), judge: p },
      np: { measure: STUDY.confusion(0, 1), judge: p },
      pn: { measure: STUDY.confusion(1, 0), judge: p },
      pp: { measure: STUDY.confusion(1, 1), judge: p },
    })
  );
  if (judgeName) {
    const j = (s: Parameters<typeof STUDY.judge>[0]) => ({
      measure: STUDY.judge(s, tau),
      judge: judgeName!,
    });
    confusion.push(
      row(confCaption, `${judgeName} (row) vs majority`, {
        nn: j("tn"),
        np: j("fn"),
        pn: j("fp"),
        pp: j("tp"),
      }),
    );
  }
  const confTable = table({
    caption: confCaption,
    rowHeader: "Pair",
    columns: ["nn:0/0", "np:0/1", "pn:1/0", "pp:1/1"].map((c) => {
      const [key, label] = c.split(":");
      return { key, label, decimals: 0 };
    }),
    rows: confusion,
    notes,
  });
  out.push({ name: "human_confusion", data, table: confTable, cells: cells(confTable) });
  if (count(STUDY.reportLevel) === 1 && judgeName) {
    const topics = [...new Set(coverage.map((c) => c.topicId))];
    const raters = [judgeName, ...names];
    const covCaption = "Report coverage per topic by rater";
    const covTable = table({
      caption: covCaption,
      rowHeader: "Topic",
      columns: raters.map((r) => ({ key: r, label: r })),
      rows: topics.map((t) =>
        row(
          covCaption,
          t,
          Object.fromEntries(raters.map((r) => [r, {
            measure: r === judgeName ? STUDY.judgeCoverage(tau) : STUDY.coverage,
            judge: r,
            topicId: t,
            absent: `no coverage of ${r} stored for ${t}: not labelled or not rated`,
          }])),
        )
      ),
      notes,
    });
    out.push({
      name: "human_topic_coverage",
      data,
      figure: topicChart(
        coverage.filter((c) => c.rater === judgeName).map((c) => ({
          topicId: c.topicId,
          run: `${judgeName} (>= ${tau})`,
          value: c.value,
        })),
        {
          title: "Report coverage per topic: judge and annotators",
          subtitle: `line: ${judgeName}; diamonds: ${names.length} annotators`,
          note: notes[1],
          human: coverage.filter((c) => c.rater !== judgeName),
          humanLabel: "annotators",
        },
      ),
      table: covTable,
      cells: cells(covTable),
    });
  }
  return out;
}
