/**
 * A table's caveats as workspace data: the notes that qualify its rows are
 * stored in the `caveats` table, and the table every view saves (CSV,
 * markdown, LaTeX, HTML, its cells file, the gallery) shows the stored ones.
 *
 * @module
 */
import { type Caveat, readCaveats, type Workspace, writeCaveats } from "@lib/store/mod.ts";
import type { Analysis } from "./types.ts";

/**
 * Stores the notes of `analysis`' table as its caveats (replacing those stored
 * for it before) and returns the analysis showing the stored caveats: the
 * table's notes in stored order, and on each line of its cells file the
 * caveats of that cell's row. A note qualifies a row when it begins with the
 * row's label and a colon (`Direct (no context): 10 empty of 10 reports ...`);
 * every other note qualifies the whole table. An analysis without a table is
 * returned as it is.
 *
 * With `write: false` (a view on a read-only workspace, e.g. a notebook), nothing
 * is stored: the analysis shows the caveats stored for it, or, when none are,
 * those its notes give, keyed the same way.
 *
 * @param ws The workspace.
 * @param analysis The analysis (not modified).
 * @param opts `write` (default true): store the notes as the table's caveats first.
 * @returns The analysis with its stored caveats.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withStoredCaveats } from "@lib/analysis/mod.ts";
 * import { table } from "@lib/report/mod.ts";
 * import { openWorkspace, readCaveats } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * const t = table({ columns: [{ key: "p", label: "P" }], rows: [{ label: "bm25", values: { p: 0.5 } }],
 *   notes: ["Mean over 3 topics.", "bm25: two topics have no ranking."] });
 * await withStoredCaveats(ws, { name: "t", data: null, table: t });
 * assert.deepEqual((await readCaveats(ws, "t")).map((c) => c.row), ["", "bm25"]);
 * ws.close();
 * ```
 */
export async function withStoredCaveats(
  ws: Workspace,
  analysis: Analysis,
  opts: { write?: boolean } = {},
): Promise<Analysis> {
  const t = analysis.table;
  if (!t) return analysis;
  // Longest labels first, so that a label that begins another does not take its notes.
  const labels = [...new Set(t.rows.map((r) => r.label))].sort((a, b) => b.length - a.length);
  const caveats: Caveat[] = (t.notes ?? []).map((text) => {
    const row = labels.find((l) => text.startsWith(`${l}: `));
    return row ? { text, row } : { text };
  });
  if (opts.write ?? true) await writeCaveats(ws, analysis.name, caveats);
  const read = await readCaveats(ws, analysis.name);
  const stored = read.length || (opts.write ?? true) ? read : caveats;
  const byRow = new Map<string, string[]>();
  for (const c of stored) {
    if (c.row) byRow.set(c.row, [...(byRow.get(c.row) ?? []), c.text]);
  }
  return {
    ...analysis,
    table: { ...t, notes: stored.map((c) => c.text) },
    ...(analysis.cells
      ? {
        cells: analysis.cells.map((c) =>
          byRow.has(c.row) ? { ...c, caveats: byRow.get(c.row)! } : c
        ),
      }
      : {}),
  };
}
