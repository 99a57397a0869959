/**
 * Per-topic report coverage under several conditions, with human labels.
 *
 * @module
 */
import { meanTopicId } from "@lib/store/mod.ts";
import { answerMeasureName, CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { table, type TableColumn, topicChart } from "@lib/report/mod.ts";
import type { Analysis, CellSource, Condition, CruxData } from "./types.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import { conditionValues, meanKey } from "./_condition_scores.ts";
import { LABELS } from "./_scores.ts";
import { labelling } from "./_labels.ts";
import { cell, symbolNote } from "./_stats.ts";
import { conditionPalette } from "./_palette.ts";
import { naturalCompare } from "@lib/report/mod.ts";

/** Options of {@linkcode topicCoverage}. */
export interface TopicCoverageOptions {
  /** Conditions shown. Default: `resolveConditions(data)` (pipelines and references). */
  conditions?: readonly Condition[];
  /** `covY` (report coverage, default) or `denY` (report density). */
  measure?: "covY" | "denY";
  /**
   * Judge of the stored human coverage drawn as black diamonds (rows of source
   * `human`, stored by the `measure:human` stage from the config's labels file,
   * judge `human-labels`, or the workspace's `human` ratings of reports).
   * Default: `human-labels` when stored, else the first stored.
   */
  humanJudge?: string;
  /** Condition whose human labels are drawn. Default: the condition with the most labels. */
  humanCondition?: string;
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Density exponent. Default 0.5. */
  w?: number;
}

/** Data of {@linkcode topicCoverage}. */
export interface TopicCoverageData {
  /** Per-topic value of every condition (`condition` = display label). */
  values: { topicId: string; condition: string; value: number }[];
  /** Human coverage per topic of `humanCondition` (empty without labels). */
  human: { topicId: string; condition: string; value: number }[];
  humanCondition?: string;
}

/**
 * Per-topic Cov(y) (or Den(y)) of the reports of each condition, as a figure
 * (one coloured line per condition across topics) and a table (topics x
 * conditions, plus the human column). The stored human coverage at `tau`
 * (source `human`, see `humanCoverageRows`), when there is any, is overlaid
 * for one condition.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts Conditions, `measure` (covY), `humanJudge`, `humanCondition`, `tau` (3), `w` (0.5).
 * @returns `topic_coverage`: values, human values, figure and table.
 * @throws {RangeError} When `humanCondition` has no label.
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { humanCoverageRows, readHumanLabels, topicCoverage } from "@lib/analysis/mod.ts";
 * import { displayFigure } from "@lib/report/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * await Deno.writeTextFile(`${dir}/human.jsonl`, '{"topicId":"sample-01","run":"rag-bm25","coverage":0.5}\n');
 * // What the `measure:human` stage stores from the config's `analysis.human` file.
 * const labels = await readHumanLabels(`${dir}/human.jsonl`);
 * const stored = humanCoverageRows(data, labels, { judge: "human-labels" });
 * const r = topicCoverage({ ...data, measures: [...(data.measures ?? []), ...stored] });
 * await displayFigure(r.figure!);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function topicCoverage(
  data: CruxData,
  opts: TopicCoverageOptions = {},
): Analysis<TopicCoverageData> {
  const t = opts.tau ?? CRUX_DEFAULTS.tau;
  const measure = opts.measure ?? "covY";
  const conditions = opts.conditions ?? resolveConditions(data);
  const label = new Map(conditions.map((c) => [c.name, c.label]));
  const scored = conditionValues(data, conditions, { tau: t, w: opts.w ?? CRUX_DEFAULTS.w });
  const values = scored.records
    .filter((r) => r.measure === measure)
    .map((r) => ({ topicId: r.topicId, condition: label.get(r.condition)!, value: r.value }));
  const { human, humanCondition, judge: humanJudge, measure: humanMeasure } = humanValues(
    data,
    opts,
    t,
  );
  const humanLabel = humanCondition
    ? `human: ${label.get(humanCondition) ?? humanCondition}`
    : "human";
  const lab = labelling(data);
  const name = LABELS[measure];
  const topics = data.topics.map((x) => x.topicId).filter((id) =>
    values.some((v) => v.topicId === id)
  ).sort(naturalCompare);
  // Each condition cell is its stored per-topic row; the human column is not a stored measure.
  const cells: CellSource[] = topics.flatMap((topicId) =>
    conditions.map((c): CellSource => {
      const key = scored.keys.get(meanKey("", c.name, measure));
      const has = values.some((v) => v.topicId === topicId && v.condition === c.label);
      return key && has ? { row: topicId, column: c.name, key: { ...key, topicId } } : {
        row: topicId,
        column: c.name,
        reason: key ? "no value stored for this topic" : "does not apply to this condition",
      };
    })
  );
  const columns: TableColumn[] = [
    ...conditions.map((c) => ({ key: c.name, label: c.label })),
    ...(human.length ? [{ key: "__human", label: humanLabel }] : []),
  ];
  const rows = topics.map((topicId) => ({
    label: topicId,
    values: Object.fromEntries([
      ...conditions.map((
        c,
      ) => [
        c.name,
        cell(values.find((v) => v.topicId === topicId && v.condition === c.label)?.value),
      ]),
      ...(human.length ? [["__human", cell(human.find((h) => h.topicId === topicId)?.value)]] : []),
    ]),
  }));
  // The human column shows the stored human coverage of each topic (the `measure:human` stage).
  if (human.length) {
    for (const r of rows) {
      cells.push(
        typeof r.values.__human === "number"
          ? {
            row: r.label,
            column: "__human",
            key: {
              run: humanCondition!,
              source: "human",
              judge: humanJudge!,
              measure: humanMeasure,
              topicId: r.label,
            },
          }
          : { row: r.label, column: "__human", reason: "no human label of this topic's report" },
      );
    }
  }
  return {
    name: "topic_coverage",
    data: { values, human, humanCondition },
    cells,
    figure: topicChart(values, {
      title: `Per-topic report ${measure === "covY" ? "coverage" : "density"} ${name}${lab.suffix}`,
      subtitle: `t = ${t} (answerability threshold)${
        human.length ? `; black diamonds: ${humanLabel}` : ""
      }`,
      palette: conditionPalette(data, conditions),
      humanSeries: humanCondition ? label.get(humanCondition) : undefined,
      note: lab.note,
      color: "condition",
      colorTitle: "condition",
      yTitle: name,
      yDomain: measure === "covY" ? [0, 1] : [0, Math.max(1.2, ...values.map((v) => v.value))],
      ...(human.length ? { human, humanLabel } : {}),
    }),
    table: table({
      caption: `Per-topic ${name} of the reports${lab.suffix}`,
      label: "tab:topic-coverage",
      rowHeader: "Topic",
      columns,
      rows,
      notes: [...lab.notes, symbolNote(t)],
    }),
  };
}

/** The stored human coverage (source `human`) at tau, of one condition (default: the one with the most topics). */
function humanValues(
  data: CruxData,
  opts: TopicCoverageOptions,
  t: number,
): {
  human: TopicCoverageData["human"];
  humanCondition?: string;
  judge?: string;
  measure: string;
} {
  const measure = answerMeasureName("Cov", t, CRUX_DEFAULTS.w);
  const stored = (data.measures ?? []).filter((r) =>
    r.source === "human" && r.measure === measure && !meanTopicId.is(r.topicId)
  );
  const judges = [...new Set(stored.map((r) => r.judge))].sort();
  // A labels file named in the config is the experiment's human labels; else the workspace's.
  const judge = opts.humanJudge ??
    (judges.includes("human-labels") ? "human-labels" : judges[0]);
  const mine = stored.filter((r) => r.judge === judge);
  if (!mine.length) return { human: [], measure };
  const counts = new Map<string, number>();
  for (const r of mine) counts.set(r.run, (counts.get(r.run) ?? 0) + 1);
  const condition = opts.humanCondition ?? [...counts].sort((a, b) => b[1] - a[1])[0][0];
  if (!counts.has(condition)) {
    throw new RangeError(
      `Cannot overlay human labels of condition "${condition}": none given (conditions with labels: ${
        [...counts.keys()].join(", ")
      })`,
    );
  }
  const human = mine.filter((r) => r.run === condition)
    .map((r) => ({ topicId: r.topicId, condition, value: r.value }));
  return { human, humanCondition: condition, judge, measure };
}
