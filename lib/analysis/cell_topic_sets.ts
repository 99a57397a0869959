/**
 * The topic set on each cell key of a table's cells file: every cell that
 * names a stored `measures` row (its `key`, or a derived cell's `inputs`)
 * carries that row's stated `topic_set`, read from the workspace when the
 * table is saved, so the cells file says what each shown value is a mean of.
 *
 * @module
 */
import { readMeasures, type WorkspaceLike } from "@lib/store/mod.ts";
import type { Analysis, CellKey } from "./types.ts";

const text = (k: Omit<CellKey, "topicSet">) =>
  [k.run, k.source, k.judge, k.measure, k.topicId].join("\u0000");

/**
 * Reads the stored topic sets once and returns a function giving an analysis
 * whose cell keys and inputs carry their stored row's topic set (`topicSet`,
 * null where the row states none); a key naming no stored row is left as it
 * is (the cells check reports it). An analysis without cells is returned as it is.
 *
 * @param ws The workspace whose `measures` the cells name.
 * @returns Analysis -> the analysis with its cell keys' topic sets.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cellTopicSets } from "@lib/analysis/cell_topic_sets.ts";
 * import { measureRow, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await ws.upsert("measures", [measureRow({ run: "a", topicId: "all", measure: "KPR",
 *   method: "keypoints", value: 0.5, topics: 3, topicSet: "judged(n=3)" })]);
 * const key = { run: "a", source: "", judge: "", measure: "KPR", topicId: "all" };
 * const a = (await cellTopicSets(ws))({ name: "t", data: null, cells: [{ row: "a", column: "k", key }] });
 * assert.equal(a.cells?.[0].key?.topicSet, "judged(n=3)");
 * ws.close();
 * ```
 */
export async function cellTopicSets(
  ws: WorkspaceLike,
): Promise<<D>(a: Analysis<D>) => Analysis<D>> {
  const rows = await readMeasures(ws, {});
  const sets = new Map(rows.map((r) => [text(r), r.topicSet ?? null]));
  const withSet = (k: CellKey): CellKey =>
    sets.has(text(k)) ? { ...k, topicSet: sets.get(text(k))! } : k;
  return <D>(a: Analysis<D>): Analysis<D> =>
    a.cells
      ? {
        ...a,
        cells: a.cells.map((c) => ({
          ...c,
          ...(c.key ? { key: withSet(c.key) } : {}),
          ...(c.inputs ? { inputs: c.inputs.map(withSet) } : {}),
        })),
      }
      : a;
}
