import assert from "node:assert/strict";
import type { Qrel, RunRow } from "@lib/types/mod.ts";
import { evaluate } from "./evaluate.ts";
import { scanQrelsTable } from "./qrels_table.ts";
import { InputError } from "@lib/formats/input_error.ts";

const row = (topicId: string, docId: string, score: number, rank = 0, run = "r"): RunRow => ({
  run,
  topicId,
  docId,
  rank,
  score,
});
const qrel = (topicId: string, docId: string, grade: number): Qrel => ({ topicId, docId, grade });

// q1: d3 0.9, dX 0.8, d1 0.8, d2 0.5, d3 again at 0.1 (a duplicate, dropped).
// Ties break on docid descending: "dX" > "d1" bytewise, so the ranking is
// d3, dX, d1, d2 with grades 0, unjudged, 2, 1. q1 has 3 relevant docs (d1, d2, d4).
// q2 is judged with no relevant document; q3 is not judged; q4 is judged but not run.
const run: RunRow[] = [
  row("q1", "d1", 0.8, 3),
  row("q1", "d3", 0.9, 1),
  row("q1", "d2", 0.5, 4),
  row("q1", "dX", 0.8, 2),
  row("q1", "d3", 0.1, 5),
  row("q2", "d9", 1, 1),
  row("q3", "d1", 1, 1),
];
const qrels: Qrel[] = [
  qrel("q1", "d1", 2),
  qrel("q1", "d2", 1),
  qrel("q1", "d3", 0),
  qrel("q1", "d4", 1),
  qrel("q2", "d9", 0),
  qrel("q4", "d1", 1),
];

function perTopic(result: ReturnType<typeof evaluate>, topicId: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of result.perTopic) if (r.topicId === topicId) out[r.measure] = r.value;
  return out;
}

Deno.test("trec_eval relevance measures on a hand-checked topic", () => {
  const result = evaluate(
    run,
    ["P@2", "P@5", "R@4", "AP", "AP@3", "RPrec", "RR", "nDCG@4", "nDCG@2", "nDCG"],
    { qrels },
  );
  const q1 = perTopic(result, "q1");
  assert.equal(q1["P@2"], 0); // d3 (0), dX (unjudged)
  assert.equal(q1["P@5"], 2 / 5); // d1, d2 in the top 5; divide by 5 though only 4 retrieved
  assert.equal(q1["R@4"], 2 / 3);
  assert.ok(Math.abs(q1["AP"] - (1 / 3 + 2 / 4) / 3) < 1e-15); // relevant at ranks 3 and 4
  assert.ok(Math.abs(q1["AP@3"] - (1 / 3) / 3) < 1e-15);
  assert.equal(q1["RPrec"], 1 / 3); // R = 3, one relevant in the top 3
  assert.equal(q1["RR"], 1 / 3);
  // DCG@4 = 2/log2(4) + 1/log2(5) = 1.430677; ideal grades 2,1,1 -> 2 + 1/log2(3) + 1/log2(4) = 3.130930
  const dcg4 = 2 / 2 + 1 / Math.log2(5);
  assert.ok(Math.abs(q1["nDCG@4"] - dcg4 / (2 + 1 / Math.log2(3) + 0.5)) < 1e-15);
  assert.ok(Math.abs(q1["nDCG@4"] - 0.456949) < 1e-6);
  assert.equal(q1["nDCG@2"], 0);
  assert.ok(Math.abs(q1["nDCG"] - q1["nDCG@4"]) < 1e-15);
  // q2 has no relevant document: evaluated, every value 0 (trec_eval).
  for (const value of Object.values(perTopic(result, "q2"))) assert.equal(value, 0);
  const summary = result.runs[0];
  assert.equal(summary.topics, 2); // q1, q2 (run ∩ judged)
  assert.equal(summary.duplicates, 1);
  assert.deepEqual(summary.unjudgedTopics, ["q3"]);
  assert.equal(summary.aggregate["P@5"], 0.2);
  assert.equal(summary.counts["P@5"], 2);
  assert.deepEqual(result.measures.slice(0, 3), ["P@2", "P@5", "R@4"]);
});

Deno.test("complete averaging scores judged topics missing from the run as 0", () => {
  const result = evaluate(run, ["P@5", "RR"], { qrels }, { complete: true });
  assert.equal(result.runs[0].topics, 3); // q1, q2, q4
  assert.ok(Math.abs(result.runs[0].aggregate["P@5"] - 0.4 / 3) < 1e-15);
  assert.equal(perTopic(result, "q4")["RR"], 0);
});

Deno.test("rel level changes what counts as relevant, not nDCG gains", () => {
  const result = evaluate(run, ["P@5", "AP", "RPrec", "RR", "nDCG@4"], { qrels }, { rel: 2 });
  // Keys show the effective rel; nDCG has no rel parameter.
  assert.deepEqual(result.measures, [
    "P(rel=2)@5",
    "AP(rel=2)",
    "RPrec(rel=2)",
    "RR(rel=2)",
    "nDCG@4",
  ]);
  const q1 = perTopic(result, "q1");
  assert.equal(q1["P(rel=2)@5"], 1 / 5); // only d1 (grade 2)
  assert.equal(q1["AP(rel=2)"], 1 / 3); // d1 at rank 3, one relevant doc
  assert.equal(q1["RPrec(rel=2)"], 0); // R = 1, rank 1 is d3
  assert.equal(q1["RR(rel=2)"], 1 / 3);
  assert.ok(Math.abs(q1["nDCG@4"] - 0.456949) < 1e-6);
  const explicit = evaluate(run, ["RPrec(rel=2)"], { qrels });
  assert.equal(perTopic(explicit, "q1")["RPrec(rel=2)"], 0);
});

Deno.test("an explicit rel wins over opts.rel, even when it equals the default", () => {
  const result = evaluate(run, ["RPrec(rel=1)", "RPrec", "RPrec(rel=2)", "P(rel=1)@5"], { qrels }, {
    rel: 2,
  });
  // RPrec and RPrec(rel=2) are the same measure under rel 2: evaluated once.
  assert.deepEqual(result.measures, ["RPrec(rel=1)", "RPrec(rel=2)", "P(rel=1)@5"]);
  const q1 = perTopic(result, "q1");
  assert.equal(q1["RPrec(rel=1)"], 1 / 3); // R = 3 (d1, d2, d4), d1 in the top 3
  assert.equal(q1["RPrec(rel=2)"], 0);
  assert.equal(q1["P(rel=1)@5"], 2 / 5); // d1 and d2
  assert.equal(result.runs[0].aggregate["RPrec(rel=1)"], 1 / 6); // q2 scores 0
  // Without opts.rel, an explicit default is the short form, evaluated once.
  const plain = evaluate(run, ["RPrec(rel=1)", "RPrec"], { qrels });
  assert.deepEqual(plain.measures, ["RPrec"]);
  assert.equal(perTopic(plain, "q1")["RPrec"], 1 / 3);
});

Deno.test("rank order follows the rank column (ndeval) instead of scores", () => {
  // By rank: d3(1), dX(2), d1(3), d2(4); by score the same here, so reverse the ranks.
  const reversed = run.filter((r) => r.topicId === "q1").map((r) => ({ ...r, rank: 10 - r.rank }));
  const byRank = evaluate(reversed, ["RR", "P@1"], { qrels }, { order: "rank" });
  // Ranks: d3 dup (5) first, d2 (6), d1 (7), dX (8), d3 (9, dropped): d2 is relevant at rank 2.
  assert.equal(perTopic(byRank, "q1")["RR"], 1 / 2);
  const byScore = evaluate(reversed, ["RR"], { qrels });
  assert.equal(perTopic(byScore, "q1")["RR"], 1 / 3);
  assert.equal(reversed[0].rank, 7); // the input was not mutated by sorting
});

Deno.test("negative grades are unjudged and excluded from the ideal", () => {
  const q = [qrel("t", "a", -1), qrel("t", "b", 1)];
  const result = evaluate([row("t", "a", 2), row("t", "b", 1)], ["P@1", "nDCG@2", "RPrec"], {
    qrels: q,
  }, { rel: 0 });
  const t = perTopic(result, "t");
  assert.equal(t["P(rel=0)@1"], 0); // a is "in the pool but unjudged", never relevant even at rel 0
  assert.equal(t["nDCG@2"], (1 / Math.log2(3)) / 1);
  assert.equal(t["RPrec(rel=0)"], 0); // rel 0: num_rel = 1 (b); top 1 is a
});

Deno.test("several runs in one call are summarised separately", () => {
  const rows = [row("q1", "d1", 1, 1, "A"), row("q1", "d3", 1, 1, "B")];
  const result = evaluate(rows, ["P@1"], { qrels });
  assert.deepEqual(result.runs.map((r) => [r.run, r.aggregate["P@1"]]), [["A", 1], ["B", 0]]);
  assert.deepEqual(
    result.aggregates.map((r) => [r.run, r.topicId, r.value]),
    [["A", "all", 1], ["B", "all", 0]],
  );
});

Deno.test("evaluate explains missing inputs and duplicate qrels", () => {
  assert.throws(
    () => evaluate(run, ["alpha_nDCG@10"], { qrels }),
    /Cannot evaluate alpha_nDCG@10: it needs diversity qrels or judgments/,
  );
  assert.throws(() => evaluate(run, ["Cov@10"], { qrels }), /needs judgments \(ratings\)/);
  assert.throws(
    () => evaluate(run, ["P@1"], { qrels: [...qrels, qrel("q1", "d1", 1)] }),
    /document "d1" is listed twice for topic "q1"; subtopic \(diversity\) qrels/,
  );
  assert.throws(() => evaluate(run, ["P@x"], { qrels }), /Cannot parse measure "P@x"/);
});

Deno.test("large, fractional and negative grades count as trec_eval counts them", () => {
  // Ranking c, a, d, b; grades c 2, a 300, d -1 (unjudged), b 0.5.
  const rows = ["c", "a", "d", "b"].map((d, i) => row("t", d, 4 - i, i + 1));
  const graded = [qrel("t", "a", 300), qrel("t", "b", 0.5), qrel("t", "c", 2), qrel("t", "d", -1)];
  const t = perTopic(
    evaluate(rows, ["nDCG@3", "R@2", "P(rel=3)@2", "RPrec(rel=0.5)"], { qrels: graded }),
    "t",
  );
  // DCG@3 = 2 + 300/log2(3); ideal 300, 2, 0.5 = 300 + 2/log2(3) + 0.5/2.
  assert.equal(t["nDCG@3"], (2 + 300 / Math.log2(3)) / (300 + 2 / Math.log2(3) + 0.5 / 2));
  assert.equal(t["R@2"], 1); // a and c are the relevant documents
  assert.equal(t["P(rel=3)@2"], 0.5); // only a
  assert.equal(t["RPrec(rel=0.5)"], 2 / 3); // R = 3 (a, b, c); a and c in the top 3
  const small = [qrel("t", "a", 3), qrel("t", "b", 1), qrel("t", "c", 2), qrel("t", "d", 0)];
  const u = perTopic(
    evaluate(rows, ["R(rel=1.5)@1", "RPrec(rel=0)", "nDCG"], { qrels: small }),
    "t",
  );
  assert.equal(u["R(rel=1.5)@1"], 1 / 2); // a and c relevant, c at rank 1
  assert.equal(u["RPrec(rel=0)"], 1); // R = 4: grade 0 counts at rel 0, and all 4 are retrieved
  const dcg = 2 + 3 / Math.log2(3) + 1 / Math.log2(5);
  assert.equal(u["nDCG"], dcg / (3 + 2 / Math.log2(3) + 1 / 2));
});

Deno.test("each measure averages over the topics its own judgments cover", () => {
  // Qrels judge t1 only; ratings judge t1 and t2; the run has both topics.
  const rows = [row("t1", "t1:0#0", 2), row("t1", "t1:0#1", 1), row("t2", "t2:0#0", 1)];
  const judgments = [
    { topicId: "t1", itemId: "t1:0#0", ratings: [5, 0] },
    { topicId: "t1", itemId: "t1:0#1", ratings: [0, 4] },
    { topicId: "t2", itemId: "t2:0#0", ratings: [5, 5] },
  ];
  const inputs = { qrels: [qrel("t1", "t1:0#0", 3), qrel("t1", "t1:0#1", 1)], judgments };
  const measures = ["P@1", "nDCG@2", "Cov@1", "Cov(filter_by_oracle=false)@1", "alpha_nDCG@1"];
  const result = evaluate(rows, measures, inputs);
  const summary = result.runs[0];
  assert.equal(summary.topics, 2);
  // P@1 and nDCG@2 over run ∩ qrels = {t1}: t2 is not scored 0.
  assert.equal(summary.aggregate["P@1"], 1);
  assert.equal(summary.counts["P@1"], 1);
  assert.equal(summary.counts["nDCG@2"], 1);
  assert.equal(perTopic(result, "t2")["P@1"], undefined);
  // Cov over run ∩ rated = {t1, t2}; t2 has no P* (not in the qrels), which is the reason given.
  assert.equal(summary.aggregate["Cov@1"], 1); // P* = {t1:0#0} answers q1 only; t1:0#0 covers it
  assert.equal(summary.counts["Cov@1"], 1);
  assert.deepEqual(result.skipped, [{
    run: "r",
    topicId: "t2",
    measure: "Cov@1",
    reason: "no oracle set P* (the topic has no qrels)",
  }]);
  // Without the oracle filter, t2 needs no P*: both topics count (t1 1/2, t2 1).
  assert.equal(summary.aggregate["Cov(filter_by_oracle=false)@1"], 0.75);
  // alpha-nDCG from ratings covers both rated topics.
  assert.equal(summary.counts["alpha_nDCG@1"], 2);
  // With complete, a qrels measure averages over every qrels topic, a CRUX measure over every rated one.
  const complete = evaluate([row("t1", "t1:0#0", 2)], measures, inputs, { complete: true });
  assert.equal(complete.runs[0].topics, 2);
  assert.equal(complete.runs[0].counts["P@1"], 1);
  assert.equal(complete.runs[0].counts["Cov(filter_by_oracle=false)@1"], 2);
});

Deno.test("measures that print the same are evaluated once, in first-seen order", () => {
  const result = evaluate(run, ["map", "MAP", "P_2", "P@2", "AP"], { qrels });
  assert.deepEqual(result.measures, ["AP", "P@2"]);
  assert.deepEqual(Object.keys(result.runs[0].aggregate), ["AP", "P@2"]);
  assert.equal(result.perTopic.filter((r) => r.topicId === "q1").length, 2);
  assert.equal(result.aggregates.length, 2);
});

Deno.test("a qrels table names the lines of a document judged twice", () => {
  const text = "q1 0 a 1\nq1 0 b 1\n\nq2 0 a 1\nq1 0 a 2\nq1 0 b 0\nq1 0 a 0\n";
  assert.throws(
    () => evaluate(run, ["P@1"], { qrelsTable: scanQrelsTable(text), qrelsFile: "x.qrels" }),
    (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.deepEqual(error.message.split("\n"), [
        'x.qrels:5: docid: document "a" is listed twice for topic "q1" (first on line 1)',
        'x.qrels:6: docid: document "b" is listed twice for topic "q1" (first on line 2)',
        'x.qrels:7: docid: document "a" is listed twice for topic "q1" (first on line 1)',
      ]);
      return true;
    },
  );
  // Records carry no lines: the message names the document and topic.
  assert.throws(
    () => evaluate(run, ["P@1"], { qrels: [...qrels, qrel("q1", "d1", 1), qrel("q2", "d9", 1)] }),
    /^Error: Cannot use qrels: document "d1" is listed twice for topic "q1"; .* \(1 more documents are repeated\)$/,
  );
});
