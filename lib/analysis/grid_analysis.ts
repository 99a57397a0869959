/**
 * The grid table of an experiment config with a `grid` section, read from its workspace.
 *
 * @module
 */
import { cellTopicSets } from "./cell_topic_sets.ts";
import { backendNote } from "@lib/report/mod.ts";
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import { readGridMeasures, readRerankUsage, type WorkspaceLike } from "@lib/store/mod.ts";
import { experimentBackends } from "./_experiment_pipelines.ts";
import { type GridRow, gridTable } from "./grid_table.ts";
import type { Analysis } from "./types.ts";

/**
 * Reads the rerank stage's usage records and the stored means of the grid's
 * runs and lays them out with {@linkcode gridTable}; the table's first note is
 * the backend note of the config's rerankers and embedders.
 *
 * @param ws The experiment workspace.
 * @param config A checked config with a `grid` section.
 * @param opts `judge` of the context measures (default: the only one stored), `env`.
 * @returns The `grid_table` analysis.
 * @throws {RangeError} When the config has no `grid` section.
 * @example
 * ```ts
 * import { gridAnalysis } from "@lib/analysis/mod.ts";
 * import { loadExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * const dir = await Deno.makeTempDir(); // normally config.workspace
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * // first stages bm25 and dense, and the cells: each reranked by lexical and by mmr
 * assert.equal((await gridAnalysis(ws, config)).data.rows.length, 6);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function gridAnalysis(
  ws: WorkspaceLike,
  config: CruxExperimentConfig,
  opts: { judge?: string; env?: Record<string, string | undefined> } = {},
): Promise<Analysis<{ rows: GridRow[] }>> {
  const grid = config.grid;
  if (!grid) {
    throw new RangeError(
      `Cannot lay out the grid of "${config.name}": its config has no "grid" section; add one`,
    );
  }
  const runs = [...grid.first, ...grid.cells.map((c) => c.run)];
  const backends = experimentBackends(config, opts.env);
  // Each cell key names its stored row's topic set.
  return (await cellTopicSets(ws))(gridTable({
    grid,
    usage: await readRerankUsage(ws),
    measures: await readGridMeasures(ws, runs),
    judge: opts.judge,
    notes: backends ? [backendNote(backends)] : [],
  }));
}
