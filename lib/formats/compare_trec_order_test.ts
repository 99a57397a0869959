import assert from "node:assert/strict";
import { compareTrecOrder } from "./compare_trec_order.ts";

Deno.test("compareTrecOrder: score descending, then docid descending in byte order", () => {
  const rows = [
    { docId: "a", score: 1 },
    { docId: "\uFF71", score: 2 },
    { docId: "c", score: 1 },
    { docId: "\u{1F600}", score: 2 },
  ];
  assert.deepEqual(rows.sort(compareTrecOrder).map((r) => r.docId), [
    "\u{1F600}",
    "\uFF71",
    "c",
    "a",
  ]);
});
