/**
 * What the explorer's compare pages show, read for every topic at once in two
 * queries: each topic's reports and its measured values. A server keeps the
 * result for as long as the workspace file is unchanged, so a compare page asked
 * for the first time is rendered from memory.
 *
 * @module
 */
import type { Generation, MeasureRow } from "@lib/types/mod.ts";
import type { Workspace } from "./workspace.ts";

/** One topic's rows for its compare page. */
export interface CompareRows {
  /** The topic's reports, by run. */
  generations: Generation[];
  /** The topic's measured values of every run, by run, measure, judge and source. */
  measures: MeasureRow[];
}

/**
 * Every topic's rows for its compare page.
 *
 * @param ws The workspace.
 * @returns Topic -> rows (topics with at least one report).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace, readExplorerCompareRows } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await ws.upsert("generations", [{ run: "rag-bm25", topicId: "sample-01", text: "A report." }]);
 * const rows = await readExplorerCompareRows(ws);
 * assert.deepEqual(rows.get("sample-01")!.generations.map((g) => g.run), ["rag-bm25"]);
 * ws.close();
 * ```
 */
export async function readExplorerCompareRows(ws: Workspace): Promise<Map<string, CompareRows>> {
  const out = new Map<string, CompareRows>();
  for (const g of await ws.generations()) {
    const rows = out.get(g.topicId);
    if (rows) rows.generations.push(g);
    else out.set(g.topicId, { generations: [g], measures: [] });
  }
  for (const m of await ws.measures()) out.get(m.topicId)?.measures.push(m);
  return out;
}
