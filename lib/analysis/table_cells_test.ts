import assert from "node:assert/strict";
import { table } from "@lib/report/mod.ts";
import { tableCells } from "./table_cells.ts";

const key = (run: string) => ({ run, source: "", judge: "j", measure: "KPR", topicId: "all" });

Deno.test("tableCells: numbers and numeric text get their origin, blanks their reason, labels nothing", () => {
  const t = table({
    columns: [
      { key: "kpr", label: "KPR" },
      { key: "rank", label: "(k)" },
      { key: "note", label: "Note" },
    ],
    rows: [
      { label: "a", values: { kpr: 0.5, rank: "2", note: "ok" } },
      { label: "a", values: { kpr: null, rank: null, note: "none" } },
    ],
  });
  const cells = tableCells(
    t,
    (row, column) =>
      column === "kpr"
        ? { key: key(row.label), reason: "not stored" }
        : { derived: "rank", inputs: [key(row.label)] },
  );
  assert.deepEqual(cells, [
    { row: "a", index: 0, column: "kpr", key: key("a") },
    { row: "a", index: 0, column: "rank", derived: "rank", inputs: [key("a")] },
    { row: "a", index: 1, column: "kpr", reason: "not stored" },
  ]);
});

Deno.test("tableCells: a number with no stored row and no derivation is an error naming the cell", () => {
  const t = table({
    caption: "Scores",
    columns: [{ key: "kpr", label: "KPR" }],
    rows: [{ label: "rag", values: { kpr: 0.25 } }],
  });
  assert.throws(
    () => tableCells(t, () => ({ reason: "blank" })),
    /table "Scores": cell rag \/ KPR has no stored row and no derivation/,
  );
});
