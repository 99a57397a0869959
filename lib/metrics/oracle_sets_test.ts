import assert from "node:assert/strict";
import { oracleSets } from "./oracle_sets.ts";

Deno.test("oracleSets: required passages per topic in qrels order, plain qrels only, each once", () => {
  const sets = oracleSets([
    { topicId: "t", docId: "t:0#4", grade: 3 },
    { topicId: "t", docId: "t:0#1", grade: 2 },
    { topicId: "u", docId: "u:0#0", grade: 3, subtopic: "0" },
    { topicId: "t", docId: "t:0#2", grade: 3 },
    { topicId: "t", docId: "t:0#4", grade: 3 },
    { topicId: "t", docId: "t:0#9", grade: 1, subtopic: "2" },
    { topicId: "v", docId: "v:0#0", grade: 3, subtopic: "1" },
  ]);
  assert.deepEqual([...sets], [["t", ["t:0#4", "t:0#2"]], ["u", ["u:0#0"]]]);
  assert.deepEqual([...oracleSets([{ topicId: "t", docId: "d", grade: 2 }], { grade: 2 })], [["t", [
    "d",
  ]]]);
});
