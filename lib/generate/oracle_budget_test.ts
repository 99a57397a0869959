import assert from "node:assert/strict";
import { oracleBudgets } from "./oracle_budget.ts";

Deno.test("oracleBudgets: k = |P*| and maxTokens = tokens of P*, P* in passage order", () => {
  const qrels = [
    { topicId: "a", docId: "a:1#10", grade: 3 },
    { topicId: "a", docId: "a:0#2", grade: 3 },
    { topicId: "a", docId: "a:0#3", grade: 2 },
    { topicId: "a", docId: "a:0#4", grade: 1 },
    { topicId: "a", docId: "a:0#2", grade: 3 }, // duplicate line counts once
    { topicId: "b", docId: "b:0#0", grade: 2 }, // no required passage: no budget
    { topicId: "a", docId: "a:0#4", grade: 1, subtopic: "2" },
  ];
  const tokens = new Map([["a:1#10", 150], ["a:0#2", 212], ["a:0#3", 99]]);
  const budgets = oracleBudgets(qrels, tokens);
  assert.deepEqual([...budgets.keys()], ["a"]);
  // 212 + 150 = 362
  assert.deepEqual(budgets.get("a"), {
    topicId: "a",
    k: 2,
    maxTokens: 362,
    oracleIds: ["a:0#2", "a:1#10"],
  });
});

Deno.test("oracleBudgets ignores diversity qrels and honours a custom grade", () => {
  const qrels = [
    { topicId: "a", docId: "a:0#0", grade: 1, subtopic: "1" },
    { topicId: "a", docId: "a:0#1", grade: 1, subtopic: "0" },
  ];
  const b = oracleBudgets(qrels, new Map([["a:0#0", 5], ["a:0#1", 7]]), { grade: 1 });
  assert.deepEqual(b.get("a"), { topicId: "a", k: 1, maxTokens: 7, oracleIds: ["a:0#1"] });
});

Deno.test("oracleBudgets fails clearly when a required passage has no token count", () => {
  assert.throws(
    () => oracleBudgets([{ topicId: "a", docId: "a:0#9", grade: 3 }], new Map()),
    /topic "a": passage "a:0#9" has no token count/,
  );
});

Deno.test("oracleBudgets caps the length at 2,500 tokens (CRUX), keeps the total, and takes another cap", () => {
  const qrels = [
    { topicId: "big", docId: "big:0#0", grade: 3 },
    { topicId: "big", docId: "big:0#1", grade: 3 },
    { topicId: "edge", docId: "edge:0#0", grade: 3 },
  ];
  const tokens = new Map([["big:0#0", 1800], ["big:0#1", 900], ["edge:0#0", 2500]]);
  const b = oracleBudgets(qrels, tokens);
  assert.deepEqual(b.get("big"), {
    topicId: "big",
    k: 2, // k stays |P*|
    maxTokens: 2500,
    uncappedTokens: 2700,
    oracleIds: ["big:0#0", "big:0#1"],
  });
  assert.deepEqual(b.get("edge"), {
    topicId: "edge",
    k: 1,
    maxTokens: 2500,
    oracleIds: ["edge:0#0"],
  });
  assert.equal(oracleBudgets(qrels, tokens, { cap: Infinity }).get("big")!.maxTokens, 2700);
  assert.equal(oracleBudgets(qrels, tokens, { cap: 1000 }).get("edge")!.uncappedTokens, 2500);
  assert.throws(() => oracleBudgets(qrels, tokens, { cap: 0 }), /cap must be positive, got 0/);
});
