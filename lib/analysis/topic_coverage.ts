/**
 * Per-topic report coverage under several conditions, with human labels.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { table, type TableColumn, topicChart } from "@lib/report/mod.ts";
import type { Analysis, CellSource, Condition, CruxData } from "./types.ts";
import type { HumanLabel } from "./human_labels.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import { conditionValues, meanKey } from "./_condition_scores.ts";
import { answerableSets, LABELS } from "./_scores.ts";
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
  /** Human labels (see `readHumanLabels`); drawn as black diamonds. */
  human?: readonly HumanLabel[];
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
 * conditions, plus the human column). Human labels, when given, are overlaid
 * for one condition: coverage labels as they are, report judgments turned
 * into coverage of the topic's answerable sub-questions at `tau`.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts Conditions, `measure` (covY), `human`, `humanCondition`, `tau` (3), `w` (0.5).
 * @returns `topic_coverage`: values, human values, figure and table.
 * @throws {RangeError} When `humanCondition` has no label.
 * @example
 * ```ts
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { readHumanLabels, topicCoverage } from "@lib/analysis/mod.ts";
 * import { displayFigure } from "@lib/report/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const data = await loadCruxData(ws);
 * await Deno.writeTextFile(`${dir}/human.jsonl`, '{"topicId":"sample-01","run":"rag-bm25","coverage":0.5}\n');
 * const r = topicCoverage(data, { human: await readHumanLabels(`${dir}/human.jsonl`) });
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
  const { human, humanCondition } = humanValues(data, opts, t);
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
  // The human column shows the human labels given, turned into coverage.
  for (const r of rows) {
    if (typeof r.values.__human === "number") {
      cells.push({
        row: r.label,
        column: "__human",
        derived: `${humanLabel}: coverage from the human labels given`,
        inputs: [],
      });
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

function humanValues(
  data: CruxData,
  opts: TopicCoverageOptions,
  t: number,
): { human: TopicCoverageData["human"]; humanCondition?: string } {
  if (!opts.human?.length) return { human: [] };
  const counts = new Map<string, number>();
  for (const h of opts.human) counts.set(h.condition, (counts.get(h.condition) ?? 0) + 1);
  const condition = opts.humanCondition ?? [...counts].sort((a, b) => b[1] - a[1])[0][0];
  if (!counts.has(condition)) {
    throw new RangeError(
      `Cannot overlay human labels of condition "${condition}": none given (conditions with labels: ${
        [...counts.keys()].join(", ")
      })`,
    );
  }
  const answerable = answerableSets(data, t);
  const human: TopicCoverageData["human"] = [];
  for (const h of opts.human) {
    if (h.condition !== condition) continue;
    if (h.coverage !== undefined) {
      human.push({ topicId: h.topicId, condition, value: h.coverage });
      continue;
    }
    const a = new Set(answerable.get(h.topicId) ?? []);
    const qs = data.questions.get(h.topicId) ?? [];
    if (a.size === 0 || h.ratings!.length !== qs.length) continue;
    const covered = qs.filter((q, i) => a.has(q) && h.ratings![i] >= t).length;
    human.push({ topicId: h.topicId, condition, value: covered / a.size });
  }
  return { human, humanCondition: condition };
}
