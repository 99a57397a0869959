import assert from "node:assert/strict";
import { oracleTokens } from "@lib/metrics/oracle_tokens.ts";
import { oracleBudgets } from "@lib/generate/oracle_budget.ts";

Deno.test("oracleTokens: sum of P*, first passage without a count named", () => {
  const tokens = new Map([["a", 120], ["b", 80], ["c", 15]]);
  assert.deepEqual(oracleTokens(["a", "b"], tokens), { tokens: 200 });
  assert.deepEqual(oracleTokens(["a", "x", "c", "y"], tokens), { tokens: 135, missing: "x" });
  assert.deepEqual(oracleTokens([], tokens), { tokens: 0 });
  // A function works as the map does.
  assert.deepEqual(oracleTokens(["b", "c"], (id) => tokens.get(id)), { tokens: 95 });
});

Deno.test("oracleTokens: the generation budget's length is tokens(P*)", () => {
  const qrels = [
    { topicId: "t", docId: "t:0#1", grade: 3 },
    { topicId: "t", docId: "t:0#0", grade: 3 },
    { topicId: "t", docId: "t:1#2", grade: 2 },
  ];
  const tokens = new Map([["t:0#0", 120], ["t:0#1", 80], ["t:1#2", 999]]);
  assert.equal(oracleBudgets(qrels, tokens).get("t")!.maxTokens, 200);
  assert.equal(oracleTokens(["t:0#1", "t:0#0"], tokens).tokens, 200);
});
