import assert from "node:assert/strict";
import { contextGapNote, withContextGapNote } from "./_context_gap_notes.ts";

const runs = [
  {
    run: "rag-bm25",
    contextRun: "bm25",
    topics: 50,
    gaps: [
      { topicId: "t1", k: 3, missing: ["x#1", "x#2"], filled: [] },
      { topicId: "t7", k: 4, missing: ["y#9"], filled: [] },
    ],
  },
  {
    run: "rag-dense",
    contextRun: "dense",
    topics: 50,
    gaps: [{ topicId: "t2", k: 2, missing: ["z#1"], filled: ["z#5"] }],
  },
];

Deno.test("contextGapNote names the affected runs a table shows, by run or context run", () => {
  assert.equal(
    contextGapNote(new Set(["bm25", "oracle"]), runs),
    "incomplete report contexts (retrieved passages with no text in the workspace): " +
      "rag-bm25 (from bm25): 2 of 50 topics, 3 passage(s) without text left out, the shorter context kept",
  );
  assert.match(
    contextGapNote(new Set(["rag-dense"]), runs)!,
    /rag-dense \(from dense\): 1 of 50 topics, 1 passage\(s\) without text replaced from lower ranks$/,
  );
  assert.equal(contextGapNote(new Set(["direct"]), runs), undefined);
});

Deno.test("withContextGapNote adds the note to the table's notes and leaves others unchanged", () => {
  const a = {
    name: "main_table",
    data: {},
    table: {
      columns: [],
      rows: [{ label: "bm25", values: {} }, { label: "direct", values: {} }],
      notes: ["offline backends: lexical judge"],
    },
  };
  const out = withContextGapNote(a, runs);
  assert.equal(out.table!.notes!.length, 2);
  assert.equal(out.table!.notes![0], "offline backends: lexical judge");
  assert.match(out.table!.notes![1], /^incomplete report contexts/);
  assert.equal(a.table.notes.length, 1, "input not mutated");
  const other = { ...a, table: { ...a.table, rows: [{ label: "direct", values: {} }] } };
  assert.equal(withContextGapNote(other, runs), other);
});
