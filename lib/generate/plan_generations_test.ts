import assert from "node:assert/strict";
import { planGenerations } from "./plan_generations.ts";
import type { OracleBudget } from "./oracle_budget.ts";

const topics = [
  { topicId: "a", request: "Report on a." },
  { topicId: "b", request: "Report on b." },
  { topicId: "c", request: "Report on c (dropped by selection)." },
];
const budgets = new Map<string, OracleBudget>([
  ["a", { topicId: "a", k: 2, maxTokens: 300, oracleIds: ["a:0#0", "a:1#3"] }],
  ["b", { topicId: "b", k: 1, maxTokens: 90, oracleIds: ["b:0#1"] }],
]);
const texts = new Map([
  ["a:0#0", "A zero."],
  ["a:1#3", "A three."],
  ["a:0#1", "A one."],
  ["a:0#2", "A two."],
  ["b:0#1", "B one."],
]);
const text = (id: string) => texts.get(id);

Deno.test("planGenerations rag: top k = |P*| by score desc, ties by docid desc, duplicates once", () => {
  const run = [
    { run: "bm25", topicId: "a", docId: "a:0#0", rank: 3, score: 1.5 },
    { run: "bm25", topicId: "a", docId: "a:0#1", rank: 1, score: 2.0 },
    { run: "bm25", topicId: "a", docId: "a:0#2", rank: 2, score: 2.0 },
    { run: "bm25", topicId: "a", docId: "a:0#2", rank: 4, score: 0.5 },
  ];
  const plan = planGenerations("rag", { topics, budgets, text, run });
  assert.deepEqual(plan.items, [{
    topicId: "a",
    condition: "rag",
    request: "Report on a.",
    contextIds: ["a:0#2", "a:0#1"], // tie at 2.0 -> larger id first; k = 2
    contexts: ["A two.", "A one."],
    maxTokens: 300,
    missingIds: [],
    filledIds: [],
  }]);
  assert.deepEqual(plan.topicsWithoutRanking, ["b"]);
  assert.deepEqual(plan.missingTexts, []);
});

Deno.test("planGenerations oracle-context uses P*; direct has no context; unknown texts reported", () => {
  const oracle = planGenerations("oracle-context", {
    topics,
    budgets,
    text: (id) => id === "a:1#3" ? undefined : text(id),
  });
  assert.deepEqual(oracle.items.map((i) => [i.topicId, i.contextIds, i.maxTokens]), [
    ["a", ["a:0#0"], 300],
    ["b", ["b:0#1"], 90],
  ]);
  assert.deepEqual(oracle.missingTexts, ["a:1#3"]);
  const direct = planGenerations("direct", { topics, budgets, text });
  assert.deepEqual(direct.items.map((i) => [i.topicId, i.contexts, i.maxTokens]), [["a", [], 300], [
    "b",
    [],
    90,
  ]]);
});

Deno.test("planGenerations rag without a run is a usage mistake", () => {
  assert.throws(() => planGenerations("rag", { topics, budgets, text }), /without a run/);
});

Deno.test("planGenerations rag breaks score ties in UTF-8 byte order, as the evaluator", () => {
  // UTF-16 code units put U+1F600 (a surrogate pair) before U+FF71; UTF-8 bytes put it after,
  // so docid descending keeps the emoji id first.
  const emoji = "a:0#\u{1F600}";
  const halfwidth = "a:0#\uFF71";
  const run = [
    { run: "bm25", topicId: "a", docId: halfwidth, rank: 1, score: 2.0 },
    { run: "bm25", topicId: "a", docId: emoji, rank: 2, score: 2.0 },
    { run: "bm25", topicId: "a", docId: "a:0#0", rank: 3, score: 1.0 },
  ];
  const budget = new Map<string, OracleBudget>([
    ["a", { topicId: "a", k: 1, maxTokens: 10, oracleIds: ["a:0#0"] }],
  ]);
  const plan = planGenerations("rag", { topics, budgets: budget, text: (id) => id, run });
  assert.deepEqual(plan.items.map((i) => i.contextIds), [[emoji]]);
});

Deno.test("planGenerations: passages without text are named per topic; keep (default) or fill", () => {
  // Ranked a:9#9 (no text) > a:0#1 > a:0#2 > a:0#0; k = |P*| = 2.
  const run = [
    { run: "r", topicId: "a", docId: "a:9#9", rank: 1, score: 4 },
    { run: "r", topicId: "a", docId: "a:0#1", rank: 2, score: 3 },
    { run: "r", topicId: "a", docId: "a:8#8", rank: 3, score: 2.5 },
    { run: "r", topicId: "a", docId: "a:0#2", rank: 4, score: 2 },
    { run: "r", topicId: "a", docId: "a:0#0", rank: 5, score: 1 },
    { run: "r", topicId: "b", docId: "b:0#1", rank: 1, score: 1 },
  ];
  const keep = planGenerations("rag", { topics, budgets, text, run });
  assert.deepEqual(
    keep.items.map((i) => [i.topicId, i.contextIds, i.missingIds, i.filledIds]),
    [["a", ["a:0#1"], ["a:9#9"], []], ["b", ["b:0#1"], [], []]],
  );
  assert.deepEqual(keep.missingTexts, ["a:9#9"]);
  const fill = planGenerations("rag", { topics, budgets, text, run, missingText: "fill" });
  // The next readable passage below rank k (a:8#8 has no text either) takes the place.
  assert.deepEqual(
    fill.items.map((i) => [i.topicId, i.contextIds, i.missingIds, i.filledIds]),
    [["a", ["a:0#1", "a:0#2"], ["a:9#9"], ["a:0#2"]], ["b", ["b:0#1"], [], []]],
  );
  assert.deepEqual(fill.items[0].contexts, ["A one.", "A two."]);
  // P* has no lower ranks: fill changes nothing for the oracle context.
  const oracle = planGenerations("oracle-context", {
    topics,
    budgets,
    text: (id) => id === "a:1#3" ? undefined : text(id),
    missingText: "fill",
  });
  assert.deepEqual(oracle.items[0].contextIds, ["a:0#0"]);
  assert.deepEqual(oracle.items[0].missingIds, ["a:1#3"]);
});
