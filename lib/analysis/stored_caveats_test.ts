import assert from "node:assert/strict";
import { table } from "@lib/report/mod.ts";
import { openWorkspace, readCaveats } from "@lib/store/mod.ts";
import { withStoredCaveats } from "./stored_caveats.ts";
import type { Analysis } from "./types.ts";

const analysis = (notes: string[]): Analysis => ({
  name: "main_table",
  data: null,
  table: table({
    columns: [{ key: "cov", label: "Cov(y)" }],
    rows: [
      { label: "Direct", values: { cov: 0 } },
      { label: "Direct (no context)", values: { cov: 0 } },
      { label: "bm25", values: { cov: 0.5 } },
    ],
    notes,
  }),
  cells: [
    { row: "Direct (no context)", column: "cov", reason: "all reports empty" },
    {
      row: "bm25",
      column: "cov",
      key: { run: "b", source: "", judge: "", measure: "Cov", topicId: "all" },
    },
  ],
});

Deno.test("withStoredCaveats: a table's notes are stored with the rows they qualify and shown from the store", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const notes = [
      "Mean over 10 topics.",
      "Direct (no context): 10 empty of 10 reports; such texts are not reports.",
      "bm25 is the first-stage run.", // no colon after the label: the whole table
    ];
    const shown = await withStoredCaveats(ws, analysis(notes));
    assert.deepEqual(await readCaveats(ws, "main_table"), [
      { text: notes[0], row: "", column: "" },
      // The longer label is matched, not "Direct".
      { text: notes[1], row: "Direct (no context)", column: "" },
      { text: notes[2], row: "", column: "" },
    ]);
    assert.deepEqual(shown.table!.notes, notes);
    assert.deepEqual(shown.cells!.map((c) => c.caveats), [[notes[1]], undefined]);
    // A later analysis replaces the caveats; none is left over.
    const again = await withStoredCaveats(ws, analysis(["Mean over 9 topics."]));
    assert.deepEqual(again.table!.notes, ["Mean over 9 topics."]);
    assert.deepEqual((await readCaveats(ws, "main_table")).map((c) => c.text), [
      "Mean over 9 topics.",
    ]);
    assert.equal(again.cells![0].caveats, undefined);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
