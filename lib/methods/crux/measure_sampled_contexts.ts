/**
 * The measure step of the metric correlations' random contexts: draws them
 * from the retrieval runs and stores every context measure of each (see
 * `sampledContexts` for the stored run, source and measure names).
 *
 * @module
 */
import { SAMPLE_KEYS, sampledContexts, type SampleSettings } from "@lib/analysis/mod.ts";
import { rankings } from "@lib/construct/mod.ts";
import { scoreContexts, workspaceJudged } from "@lib/pipeline/mod.ts";
import { deleteMeasures, measureRow, type Workspace, writeMeasures } from "@lib/store/mod.ts";

/** Source prefix of every stored value of a sampled context. */
export const SAMPLE_SOURCE_PREFIX = "sample(";

/** Options of {@linkcode measureSampledContexts}. */
export interface MeasureSampledContextsOptions {
  /** Retrieval runs drawn from, in order (the order of the seeded draw). */
  runs: readonly string[];
  /** Judge of the passage ratings. */
  judge: string;
  /** Draw and threshold (see `sampledContexts.settings`). */
  settings: SampleSettings;
  /** Notes (a run without rows, values the evaluator left out). */
  onNote?: (message: string) => void;
}

/**
 * Draws `samples` contexts of `size` passages from the top `depth` of every
 * topic's ranking in each run (one seeded generator, runs in order, topics in
 * id order), scores each with Cov, alpha-nDCG, Den, R, AP, nDCG and P at cutoff
 * `size` (relevance and P* from the selection, sub-questions as subtopics at
 * `tau`) and stores the per-topic values under `<run>#sample<i>`, replacing
 * every earlier sampled-context value. A run without rows is noted and skipped;
 * a value the evaluator cannot compute (density of a context with a passage
 * without a token count) is not stored, and noted.
 *
 * @param ws The workspace.
 * @param opts Runs, judge, settings, notes.
 * @returns Rows stored.
 * @example
 * ```ts
 * import { sampledContexts } from "@lib/analysis/mod.ts";
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { measureSampledContexts } from "./measure_sampled_contexts.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" });
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * const settings = sampledContexts.settings({ samples: 2 });
 * await measureSampledContexts(ws, { runs: ["bm25"], judge: "human", settings });
 * ws.close();
 * ```
 */
export async function measureSampledContexts(
  ws: Workspace,
  opts: MeasureSampledContextsOptions,
): Promise<number> {
  const s = opts.settings;
  const ranked = new Map<string, Map<string, string[]>>();
  for (const run of opts.runs) {
    const rows = await ws.runRows(run);
    if (rows.length === 0) {
      opts.onNote?.(`Run "${run}" has no rows: no contexts drawn from it`);
      continue;
    }
    ranked.set(run, rankings(rows));
  }
  const topics = new Set((await ws.topics()).map((t) => t.topicId));
  const drawn = sampledContexts.draw(ranked, topics, s);
  const { inputs } = await workspaceJudged(ws, { source: "selection", judge: opts.judge });
  const scored = scoreContexts(inputs, drawn, { keys: SAMPLE_KEYS, cutoff: s.size, tau: s.tau });
  if (scored.leftOut !== undefined) {
    opts.onNote?.(`Den@${s.size} of the sampled contexts left out: ${scored.leftOut}`);
  }
  const skipped = scored.result?.skipped.length ?? 0;
  if (skipped) {
    opts.onNote?.(`${skipped} values of the sampled contexts could not be computed; not stored`);
  }
  const rows = scored.rows.map((r) => {
    const k = sampledContexts.key(
      r.measure as (typeof SAMPLE_KEYS)[number],
      r.topicId,
      opts.judge,
      s,
    );
    return measureRow({
      run: r.run,
      topicId: r.topicId,
      measure: k.measure,
      name: k.name,
      cutoff: k.cutoff,
      method: k.method,
      judge: k.judge,
      source: k.source,
      value: r.value,
      topicSet: k.topicSet,
    });
  });
  await ws.transaction(async () => {
    await deleteMeasures(ws, { sourcePrefix: SAMPLE_SOURCE_PREFIX });
    await writeMeasures(ws, rows);
  });
  return rows.length;
}
