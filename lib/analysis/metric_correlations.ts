/**
 * Correlations between context measures over randomly sampled contexts.
 *
 * @module
 */
import { correlationHeatmap, type CorrelationPair, correlationTable } from "@lib/report/mod.ts";
import type { Analysis, CruxData } from "./types.ts";
import { type ContextKey, type ContextSpec, LABELS, scoreDataContexts } from "./_scores.ts";
import { rankings } from "@lib/construct/mod.ts";
import { labelling } from "./_labels.ts";
import { CRUX_DEFAULTS, seededRandom } from "@lib/metrics/mod.ts";
import { sampleContexts } from "./sample_contexts.ts";
import { tau } from "./_stats.ts";
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
  /** Kendall tau-b of every pair of measures (a before b in measure order). */
  pairs: CorrelationPair[];
  /** Sampled contexts scored (topic x run x sample). */
  contexts: number;
  /** Per-context values: `run` is `{run}#{sample}`. */
  values: { run: string; topicId: string; measure: string; value: number }[];
}

const DEFAULT_MEASURES: ContextKey[] = [
  "covZ",
  "andcg",
  "denZ",
  "recall",
  "map",
  "ndcg",
  "precision",
];

/**
 * Draws, with a seeded generator, `samples` random contexts of `size`
 * passages from the top `depth` of every topic's ranking in each first-stage
 * run (16 x 10 from the top 50 by default), scores each context with the
 * context measures at cutoff `size`, and correlates every pair of measures
 * with Kendall's tau-b over all sampled contexts (every topic, run and
 * sample). The same seed gives the same samples and values.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts Runs, `samples` (16), `size` (10), `depth` (50), `seed` (42), measures, `tau` (3).
 * @returns `metric_correlations`: pairs, values, a heatmap figure and a correlation table.
 * @throws {RangeError} When a named run does not exist or no run is available.
 * @example
 * ```ts
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { metricCorrelations } from "@lib/analysis/mod.ts";
 * import { displayFigure } from "@lib/report/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // the select and retrieve stages, in short
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * const data = await loadCruxData(ws);
 * const r = metricCorrelations(data, { runs: ["bm25"], seed: 7 });
 * await displayFigure(r.figure!);
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
  const size = opts.size ?? 10;
  const samples = opts.samples ?? 16;
  const depth = opts.depth ?? 50;
  const measures = opts.measures ?? DEFAULT_MEASURES;
  const random = seededRandom(opts.seed ?? 42);
  const judgedTopics = new Set(data.topics.map((t) => t.topicId));
  const contexts: ContextSpec[] = [];
  for (const run of runs) {
    const ranked = [...rankings(data.runs.get(run)!)].filter(([t]) => judgedTopics.has(t))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [topicId, ids] of ranked) {
      sampleContexts(ids, { random, samples, size, depth }).forEach((sample, i) =>
        contexts.push({ name: `${run}#${i + 1}`, topicId, ids: sample })
      );
    }
  }
  const values = scoreDataContexts(data, contexts, {
    keys: measures,
    cutoff: size,
    tau: opts.tau ?? CRUX_DEFAULTS.tau,
  });
  const byContext = new Map<string, Map<string, number>>();
  for (const v of values) {
    const key = `${v.run}\u0000${v.topicId}`;
    let m = byContext.get(key);
    if (!m) byContext.set(key, m = new Map());
    m.set(v.measure, v.value);
  }
  const points = [...byContext.values()];
  const pairs: CorrelationPair[] = [];
  for (let i = 0; i < measures.length; i++) {
    for (let j = i + 1; j < measures.length; j++) {
      const x = points.map((p) => p.get(measures[i]) ?? NaN);
      const y = points.map((p) => p.get(measures[j]) ?? NaN);
      const value = tau(x, y);
      if (!Number.isNaN(value)) {
        pairs.push({ a: LABELS[measures[i]], b: LABELS[measures[j]], value });
      }
    }
  }
  const lab = labelling(data);
  const subtitle =
    `Kendall τ over ${points.length} random contexts (${samples} x ${size} passages from the top ${depth} of ${
      runs.join(", ")
    }; seed ${opts.seed ?? 42})`;
  const table = correlationTable(pairs, {
    symmetric: true,
    rows: measures.map((m) => LABELS[m]),
    columns: measures.map((m) => LABELS[m]),
    caption: `Kendall τ between context measures over random contexts${lab.suffix}`,
    label: "tab:metric-correlations",
    notes: [...lab.notes, subtitle + "."],
  });
  return {
    name: "metric_correlations",
    data: { pairs, contexts: points.length, values },
    figure: correlationHeatmap(pairs, {
      title: `Correlation of context measures${lab.suffix}`,
      subtitle,
      note: lab.note,
      valueTitle: "Kendall τ",
    }),
    table,
    // Each cell is a correlation over the sampled contexts (no stored row holds them).
    cells: tableCells(table, (row, column) => {
      const other = table.columns.find((c) => c.key === column)?.label;
      return {
        derived: other === row.label
          ? "a measure with itself"
          : `Kendall τ of ${row.label} and ${other} over ${points.length} sampled contexts`,
        inputs: [],
        reason: "undefined: no variation over the sampled contexts",
      };
    }),
  };
}
