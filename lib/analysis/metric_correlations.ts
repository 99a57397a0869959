/**
 * Correlations between context measures over randomly sampled contexts: the
 * statistics stage computes them from the values the `measure:samples` stage
 * stored (see `sampledContexts` for their names); nothing is computed here.
 *
 * @module
 */
import { correlationHeatmap, type CorrelationPair, correlationTable } from "@lib/report/mod.ts";
import type { Analysis, CruxData } from "./types.ts";
import { type ContextKey, LABELS } from "./_scores.ts";
import { rankings } from "@lib/construct/mod.ts";
import { labelling } from "./_labels.ts";
import { SAMPLE_KEYS, sampledContexts } from "./sampled_contexts.ts";
import type { StatisticKey } from "@lib/store/mod.ts";
import type { StatisticRequest } from "./compute_statistics.ts";
import { type ShownStatistic, storedStatistic } from "./stored_statistic.ts";
import { tableCells } from "./table_cells.ts";

/** Options of {@linkcode metricCorrelations}. */
export interface MetricCorrelationsOptions {
  /** First-stage runs to sample from. Default: every run of the workspace. */
  runs?: readonly string[];
  /** Contexts drawn per run and topic. Default 16. */
  samples?: number;
  /** Passages per context. Default 10. */
  size?: number;
  /** Draw from the top `depth` of each ranking. Default 50. */
  depth?: number;
  /** Seed of the sampling. Default 42. */
  seed?: number;
  /** Measures correlated. Default Cov(Z), alpha-nDCG, Den(Z), Recall, MAP, nDCG, Precision. */
  measures?: readonly ContextKey[];
  /** Answerability threshold. Default 3. */
  tau?: number;
}

/** Data of {@linkcode metricCorrelations}. */
export interface MetricCorrelationsData {
  /** The stored Kendall tau-b of every pair of measures (a before b in measure order). */
  pairs: CorrelationPair[];
  /** Sampled contexts (topic x run x sample). */
  contexts: number;
  /** The stored per-context values read: `run` is `{run}#sample{i}`, `measure` the key. */
  values: { run: string; topicId: string; measure: string; value: number }[];
}

type Key = { run: string; source: string; judge: string; measure: string; topicId: string };

/**
 * Kendall's tau-b of every pair of context measures over the random contexts
 * the measure step drew and measured (`samples` contexts of `size` passages
 * from the top `depth` of every topic's ranking in each first-stage run, 16 x
 * 10 from the top 50 by default, at cutoff `size`): the table reads the stored
 * per-context rows (source `sample(...)` of these settings, the passage judge),
 * asks the statistics stage for each pair's tau (`statistics`: statistic
 * `kendall_tau_b_sampled`, its inputs named per run as `<run>#sample*`, parameters
 * `samples` and `contexts`) and shows the stored rows. A pair any of whose sampled
 * contexts lacks a stored value is left blank, naming the missing rows; so is a
 * pair whose statistic is not stored, with why.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts Runs, `samples` (16), `size` (10), `depth` (50), `seed` (42), measures, `tau` (3).
 * @returns `metric_correlations`: pairs, values, a heatmap figure and a correlation table.
 * @throws {RangeError} When a named run does not exist or no run is available.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData, metricCorrelations } from "@lib/analysis/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // the select and retrieve stages, in short
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * const data = await loadCruxData(ws, { passageJudge: "human" });
 * const r = metricCorrelations(data, { runs: ["bm25"], seed: 7 });
 * // The measure:samples stage has not stored the contexts' values: every pair is blank.
 * assert.deepEqual(r.data.pairs, []);
 * assert.match(r.cells![1].reason!, /^not stored: /);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function metricCorrelations(
  data: CruxData,
  opts: MetricCorrelationsOptions = {},
): Analysis<MetricCorrelationsData> {
  const runs = opts.runs ?? [...data.runs.keys()];
  for (const run of runs) {
    if (!data.runs.has(run)) {
      throw new RangeError(
        `Cannot sample contexts from run "${run}": it is not in the workspace (known runs: ${
          [...data.runs.keys()].join(", ") || "none"
        })`,
      );
    }
  }
  if (runs.length === 0) {
    throw new RangeError(
      "Cannot sample contexts: the workspace has no retrieval run; retrieve first",
    );
  }
  const s = sampledContexts.settings(opts);
  const { samples, size, depth, seed } = s;
  const measures = opts.measures ?? SAMPLE_KEYS;
  const source = sampledContexts.source(s);
  const judge = data.passageJudge;
  const stored = new Map<string, number>();
  const text = (k: Key) => [k.run, k.source, k.judge, k.measure, k.topicId].join("\u0000");
  for (const r of data.measures ?? []) {
    if (r.source === source && r.judge === judge) stored.set(text(r), r.value);
  }
  // The contexts drawn: every sample of every run's judged topics.
  const judgedTopics = new Set(data.topics.map((t) => t.topicId));
  const contexts: { run: string; topicId: string }[] = [];
  for (const run of runs) {
    const topics = [...rankings(data.runs.get(run)!).keys()].filter((t) => judgedTopics.has(t))
      .sort();
    for (const topicId of topics) {
      for (let i = 1; i <= samples; i++) {
        contexts.push({ run: sampledContexts.run(run, i), topicId });
      }
    }
  }
  const keyOf = (c: { run: string; topicId: string }, m: ContextKey): Key => ({
    run: c.run,
    source,
    judge,
    measure: sampledContexts.key(m, c.topicId, judge, s).measure,
    topicId: c.topicId,
  });
  const values: MetricCorrelationsData["values"] = [];
  const column = new Map<ContextKey, { x: number[]; keys: Key[]; missing: Key[] }>();
  for (const m of measures) {
    const col = { x: [] as number[], keys: [] as Key[], missing: [] as Key[] };
    for (const c of contexts) {
      const k = keyOf(c, m);
      const v = stored.get(text(k));
      col.keys.push(k);
      if (v === undefined) col.missing.push(k);
      else values.push({ run: c.run, topicId: c.topicId, measure: m, value: v });
      col.x.push(v ?? NaN);
    }
    column.set(m, col);
  }
  // One statistic per pair (a before b in measure order): its inputs named as
  // the samples of each run, the values in context order.
  const refs = (m: ContextKey) =>
    runs.map((run) => ({
      run: `${run}#sample*`,
      source,
      judge,
      measure: sampledContexts.key(m, "all", judge, s).measure,
    }));
  const statistics: StatisticRequest[] = [];
  const shown = new Map<string, ShownStatistic>();
  const pairs: CorrelationPair[] = [];
  const pairKey = (a: ContextKey, b: ContextKey) => `${a}\u0000${b}`;
  for (let i = 0; i < measures.length; i++) {
    for (let j = i + 1; j < measures.length; j++) {
      const a = column.get(measures[i])!;
      const b = column.get(measures[j])!;
      const key: StatisticKey = {
        statistic: "kendall_tau_b_sampled",
        x: refs(measures[i]),
        y: refs(measures[j]),
        topicSet: "all",
        params: { samples, contexts: contexts.length },
      };
      const missing = [...a.missing, ...b.missing];
      statistics.push({
        key,
        x: a.x.map((v) => (Number.isNaN(v) ? null : v)),
        y: b.x.map((v) => (Number.isNaN(v) ? null : v)),
        ...(missing.length
          ? { missing: [`${missing.length} value(s) of the sampled contexts not stored`] }
          : {}),
      });
      const stat = storedStatistic(data, key);
      shown.set(pairKey(measures[i], measures[j]), stat);
      if (!missing.length && stat.value !== null) {
        pairs.push({ a: LABELS[measures[i]], b: LABELS[measures[j]], value: stat.value });
      }
    }
  }
  const lab = labelling(data);
  const subtitle =
    `Kendall τ over ${contexts.length} random contexts (${samples} x ${size} passages from the top ${depth} of ${
      runs.join(", ")
    }; seed ${seed})`;
  const table = correlationTable(pairs, {
    symmetric: true,
    rows: measures.map((m) => LABELS[m]),
    columns: measures.map((m) => LABELS[m]),
    caption: `Kendall τ between context measures over random contexts${lab.suffix}`,
    label: "tab:metric-correlations",
    notes: [...lab.notes, subtitle + "."],
  });
  const byLabel = new Map(measures.map((m) => [LABELS[m], column.get(m)!]));
  return {
    name: "metric_correlations",
    data: { pairs, contexts: contexts.length, values },
    figure: correlationHeatmap(pairs, {
      title: `Correlation of context measures${lab.suffix}`,
      subtitle,
      note: lab.note,
      valueTitle: "Kendall τ",
    }),
    table,
    // Each cell is a correlation of the stored values of the sampled contexts.
    cells: tableCells(table, (row, col) => {
      const other = table.columns.find((c) => c.key === col)?.label ?? "";
      const a = byLabel.get(row.label)!;
      const b = byLabel.get(other)!;
      if (other === row.label) return { derived: "a measure with itself", inputs: [] };
      const [i, j] = [row.label, other].map((l) => measures.findIndex((m) => LABELS[m] === l));
      const stat = shown.get(pairKey(measures[Math.min(i, j)], measures[Math.max(i, j)]))!;
      const missing = [...a.missing, ...b.missing];
      return {
        derived: `Kendall τ of ${row.label} and ${other} over ${contexts.length} sampled contexts`,
        // Named as a set: listing every sampled context's row would take megabytes.
        ...(!a.keys.length || !b.keys.length ? { inputs: [] } : {
          inputSet: {
            source: a.keys[0].source,
            judge: a.keys[0].judge,
            measures: [...new Set([a.keys[0].measure, b.keys[0].measure])],
            count: a.keys.length + b.keys.length,
          },
        }),
        statistic: stat.id,
        reason: missing.length
          ? `not stored: ${missing.length} value(s) of the sampled contexts, e.g. ${
            Object.values(missing[0]).join("|")
          } (run the measure:samples stage)`
          : stat.reason,
      };
    }),
    statistics,
  };
}
