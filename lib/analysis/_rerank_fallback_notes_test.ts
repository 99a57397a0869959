import assert from "node:assert/strict";
import { withRerankFallbackNote } from "./_rerank_fallback_notes.ts";
import type { Analysis } from "./types.ts";

const analysis = (labels: string[]): Analysis => ({
  name: "t",
  data: {},
  table: {
    columns: [{ key: "v", label: "V" }],
    rows: labels.map((label) => ({ label, values: { v: 1 } })),
    notes: ["first note"],
  },
});

Deno.test("a table showing a run (or its reports) that fell back says so; others are unchanged", () => {
  const fallbacks = [
    { run: "bm25+ft", method: "first-token", fallback: 3 },
    { run: "bm25+sw", method: "setwise-logprobs", fallback: 7 },
  ];
  const main = withRerankFallbackNote(analysis(["bm25", "bm25+ft"]), fallbacks);
  assert.deepEqual(main.table!.notes, [
    "first note",
    "reranked without log-probabilities (the endpoint returned none; ordered by the generated " +
    "text instead): bm25+ft (first-token, 3 window(s))",
  ]);
  const reports = withRerankFallbackNote(analysis(["rag-bm25+sw"]), fallbacks);
  assert.match(reports.table!.notes!.at(-1)!, /bm25\+sw \(setwise-logprobs, 7 comparison\(s\)\)$/);
  const other = analysis(["bm25", "dense"]);
  assert.equal(withRerankFallbackNote(other, fallbacks), other);
});
