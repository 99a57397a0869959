import assert from "node:assert/strict";
import type { Qrel, RunRow } from "@lib/types/mod.ts";
import { evaluate } from "./evaluate.ts";
import type { ItemRatings } from "./judged.ts";

// Topic t, 3 sub-questions. Ratings (tau = 3):
//   t:0#0 [5,0,0]  t:0#1 [0,4,0]  t:1#2 [0,0,2]  t:1#3 [3,-1,0]  t:report [5,5,0]
// Without qrels P* = all four passages; A = {q1, q2} (q3 peaks at 2).
// Topic u has nothing rated >= 3, so |A| = 0 and it is left out of Cov/Den.
const judgments: ItemRatings[] = [
  { topicId: "t", itemId: "t:0#0", ratings: [5, 0, 0] },
  { topicId: "t", itemId: "t:0#1", ratings: [0, 4, 0] },
  { topicId: "t", itemId: "t:1#2", ratings: [0, 0, 2] },
  { topicId: "t", itemId: "t:1#3", ratings: [3, -1, 0] },
  { topicId: "t", itemId: "t:report", ratings: [5, 5, 0] },
  { topicId: "u", itemId: "u:0#0", ratings: [1, 2] },
];
const TOKENS: Record<string, number> = {
  "t:0#0": 100,
  "t:0#1": 100,
  "t:1#2": 50,
  "t:1#3": 50,
  "x": 10,
};
const tokens = (id: string) => TOKENS[id] ?? 0;
const ranking = (topicId: string, docs: string[]): RunRow[] =>
  docs.map((docId, i) => ({ run: "r", topicId, docId, rank: i + 1, score: docs.length - i }));
const values = (result: ReturnType<typeof evaluate>, topicId = "t") =>
  Object.fromEntries(
    result.perTopic.filter((r) => r.topicId === topicId).map((r) => [r.measure, r.value]),
  );

Deno.test("Cov counts answerable sub-questions covered by the top k", () => {
  const run = [...ranking("t", ["t:1#2", "t:0#0", "x"]), ...ranking("u", ["u:0#0"])];
  const result = evaluate(
    run,
    ["Cov@1", "Cov@2", "Cov(filter_by_oracle=false)@2", "Cov@oracle", "Cov(tau=5)@2", "Cov"],
    { judgments },
  );
  const t = values(result);
  assert.equal(t["Cov@1"], 0); // t:1#2 answers nothing at >= 3
  assert.equal(t["Cov@2"], 1 / 2); // q1 via t:0#0
  assert.equal(t["Cov(filter_by_oracle=false)@2"], 1 / 3); // A = all 3 sub-questions
  assert.equal(t["Cov@oracle"], 1 / 2); // depth |P*| = 4; "x" is unjudged (rates 0)
  assert.equal(t["Cov(tau=5)@2"], 1); // A at tau 5 = {q1}, covered by t:0#0
  assert.equal(t["Cov"], 1 / 2);
  assert.deepEqual(values(result, "u"), { "Cov(filter_by_oracle=false)@2": 0 });
  assert.equal(result.skipped.filter((s) => s.topicId === "u").length, 5);
  assert.match(result.skipped[0].reason, /\|A\| = 0/);
  assert.equal(result.runs[0].counts["Cov@2"], 1);
  assert.equal(result.runs[0].aggregate["Cov@2"], 1 / 2);
  assert.equal(result.unparseableRatings, 1);
});

Deno.test("an explicit tau wins over opts.tau, even when it equals the default", () => {
  // t:1#3 rates q1 3: answered at tau 3, not at tau 4. A = {q1, q2} at both.
  const result = evaluate(
    ranking("t", ["t:1#3"]),
    ["Cov(tau=3)@1", "Cov@1", "Cov(tau=4)@1", "Den(tau=3,w=1)@1"],
    { judgments, tokens },
    { tau: 4 },
  );
  // Cov@1 and Cov(tau=4)@1 are one measure under tau 4, keyed with its tau.
  assert.deepEqual(result.measures, ["Cov(tau=3)@1", "Cov(tau=4)@1", "Den(tau=3,w=1)@1"]);
  const t = values(result);
  assert.equal(t["Cov(tau=3)@1"], 1 / 2);
  assert.equal(t["Cov(tau=4)@1"], 0);
  // Cov 1/2 over 50 tokens vs the oracle's 1 over 300: (0.5/50)/(1/300) = 3.
  assert.ok(Math.abs(t["Den(tau=3,w=1)@1"] - 3) < 1e-12);
  // Without opts.tau the explicit default is the short form.
  const plain = evaluate(ranking("t", ["t:1#3"]), ["Cov(tau=3)@1", "Cov@1"], { judgments });
  assert.deepEqual(plain.measures, ["Cov@1"]);
  assert.equal(values(plain)["Cov@1"], 1 / 2);
});

Deno.test("Den compares coverage per token with the oracle set's", () => {
  // tokens(P*) = 300, Cov(P*) = 1.
  // Top 3 = t:1#2, t:0#0, x: Cov 1/2, 160 tokens -> (0.5/160)/(1/300) = 0.9375.
  const result = evaluate(
    ranking("t", ["t:1#2", "t:0#0", "x"]),
    ["Den@3", "Den(w=1)@3", "Den@1"],
    { judgments, tokens },
  );
  const t = values(result);
  assert.equal(t["Den(w=1)@3"], 0.9375);
  assert.equal(t["Den@3"], Math.sqrt(0.9375));
  assert.equal(t["Den@1"], 0); // nothing covered
  // The oracle context itself has density 1 by construction.
  const oracle = evaluate(ranking("t", ["t:0#0", "t:0#1", "t:1#2", "t:1#3"]), ["Den@oracle"], {
    judgments,
    tokens,
  });
  assert.equal(oracle.perTopic[0].value, 1);
  // A denser context exceeds 1: t:1#3 alone covers q1 in 50 tokens -> (0.5/50)/(1/300) = 3.
  const dense = evaluate(ranking("t", ["t:1#3"]), ["Den(w=1)@1"], { judgments, tokens });
  assert.equal(dense.perTopic[0].value, 3);
  assert.throws(
    () => evaluate(ranking("t", ["t:0#0"]), ["Den@1"], { judgments }),
    /density needs token counts/,
  );
});

Deno.test("with CRUX qrels the oracle set is the grade-3 passages", () => {
  const qrels: Qrel[] = [
    { topicId: "t", docId: "t:0#0", grade: 3 },
    { topicId: "t", docId: "t:0#1", grade: 3 },
    { topicId: "t", docId: "t:1#3", grade: 1 },
  ];
  // P* = {t:0#0, t:0#1}; A = {q1, q2}; run t:1#3 covers q1 only.
  const result = evaluate(ranking("t", ["t:1#3", "t:0#1"]), ["Cov@1", "Cov@oracle", "P@oracle"], {
    judgments,
    qrels,
  });
  const t = values(result);
  assert.equal(t["Cov@1"], 1 / 2);
  assert.equal(t["Cov@oracle"], 1);
  assert.equal(t["P@oracle"], 1); // grades 1 and 3, depth |P*| = 2
  // Topic u is in the judgments but not the qrels: no P*, left out, and the reason says why.
  const u = evaluate(ranking("u", ["u:0#0"]), ["Cov@oracle", "Cov@1"], { judgments, qrels });
  assert.equal(u.perTopic.length, 0);
  assert.deepEqual(u.skipped.map((s) => s.reason), [
    "no oracle set P* (the topic has no qrels)",
    "no oracle set P* (the topic has no qrels)",
  ]);
  // A topic in the qrels without a grade-3 passage has an empty P*.
  const noRequired = evaluate(ranking("t", ["t:1#3"]), ["Cov@oracle"], {
    judgments,
    qrels: qrels.filter((q) => q.grade < 3),
  });
  assert.equal(noRequired.skipped[0].reason, "empty oracle set P*");
});

Deno.test("judgments alone yield relevance and subtopic qrels at tau", () => {
  // Derived grades: t:0#0 1, t:0#1 1, t:1#2 0, t:1#3 1.
  // Derived subtopics: q1 -> t:0#0, t:1#3; q2 -> t:0#1 (t:1#3's -1 counts as 0).
  const result = evaluate(ranking("t", ["t:1#2", "t:0#0"]), ["P@2", "R@2", "alpha_nDCG@2"], {
    judgments,
  });
  const t = values(result);
  assert.equal(t["P@2"], 1 / 2);
  assert.equal(t["R@2"], 1 / 3);
  // DCG@2 = 1/log2(3); ideal: t:0#1 (1; tie on 1 with t:1#3 and t:0#0, larger id), then
  // t:1#3 or t:0#0 (1) -> 1 + 1/log2(3).
  assert.equal(t["alpha_nDCG@2"], (1 / Math.log2(3)) / (1 + 1 / Math.log2(3)));
});

Deno.test("ratings of unequal length are rejected", () => {
  assert.throws(
    () =>
      evaluate(ranking("t", ["a"]), ["Cov@1"], {
        judgments: [
          { topicId: "t", itemId: "a", ratings: [1, 2] },
          { topicId: "t", itemId: "b", ratings: [1] },
        ],
      }),
    /item "b" of topic "t" has 1 ratings but the topic's first item has 2/,
  );
});
