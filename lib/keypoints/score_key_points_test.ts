import assert from "node:assert/strict";
import { scoreKeyPoints } from "./score_key_points.ts";
import { keyPointMeasureRows } from "./key_point_measure_rows.ts";

const kp = (id: string, mergedFrom: string[] = [id], spanStatus?: ("exact" | "missing")[]) => ({
  id,
  text: id,
  spans: spanStatus ? spanStatus.map(() => "s") : [],
  mergedFrom,
  ...(spanStatus ? { spanStatus } : {}),
});

// q1: four merged points (k1 from two originals, k3 with an unfound span); q2 two; q3 none.
const POINTS = [
  {
    qid: "q1",
    keypoints: [kp("k1", ["o1", "o4"]), kp("k2"), kp("k3", ["o3"], ["missing"]), kp("k4")],
  },
  { qid: "q2", keypoints: [kp("m1"), kp("m2")] },
  { qid: "q3", keypoints: [] },
];
const L = (qid: string, runId: string, keypointId: string, label: string | null) => ({
  qid,
  runId,
  keypointId,
  label,
});

Deno.test("scoreKeyPoints: KPR, KPP, KPF and three-way rates by hand", () => {
  const labels = [
    L("q1", "a", "k1", "yes"),
    L("q1", "a", "k2", "neutral"),
    L("q1", "a", "k3", "yes"), // a point with an unfound span still counts when entailed
    L("q1", "a", "k4", "no"), // Long2RAG's no: does not entail -> omitted
    L("q2", "a", "m1", "supported"),
    L("q2", "a", "m2", "contradicts"), // the separate contradiction label
    L("q1", "b", "k1", null), // unusable answer: omitted, not covered
    L("q1", "b", "k2", "yes"),
  ];
  const statements = [
    { qid: "q1", runId: "a", supported: true },
    { qid: "q1", runId: "a", supported: false },
    { qid: "q3", runId: "a", supported: true }, // q3 has no key points: KPP only
  ];
  const [a, b] = scoreKeyPoints(POINTS, labels, { statements });
  // Run a. q1: KPR 2/4; rates s 2/4, o 2/4 (neutral, no), c 0; KPP 1/2; KPF = 2*.5*.5/1 = 0.5.
  // q2: KPR 1/2; rates s .5, o 0, c .5; no statements -> no KPP, no KPF.
  // q3: KPP 1, nothing else.
  assert.deepEqual(a.perQuestion.map((q) => [q.qid, q.KPR, q.KPP, q.KPF]), [
    ["q1", 0.5, 0.5, 0.5],
    ["q2", 0.5, NaN, NaN],
    ["q3", NaN, 1, NaN],
  ]);
  assert.deepEqual(a.aggregate, {
    KPR: 0.5,
    KPP: 0.75,
    KPF: 0.5,
    kp_supported: 0.5,
    kp_omitted: 0.25,
    kp_contradicted: 0.25,
  });
  assert.deepEqual(a.topics, {
    KPR: 2,
    KPP: 2,
    KPF: 1,
    kp_supported: 2,
    kp_omitted: 2,
    kp_contradicted: 2,
  });
  // Run b: q1 has k1 unusable and k3, k4 unlabelled; q2 has no line: neither has a
  // KPR, and b has no mean (never the 0.125 of counting them as not covered).
  assert.ok(Number.isNaN(b.aggregate.KPR));
  assert.deepEqual(b.perQuestion.map((q) => [q.qid, q.KPR]), [["q1", NaN], ["q2", NaN]]);
  assert.deepEqual(b.missing, ["q1", "q2"]);
  assert.equal(b.unlabelled, 5);
  assert.ok(Number.isNaN(b.aggregate.kp_omitted));

  const rows = keyPointMeasureRows([a], { judge: "offline-lexical", source: "file:kp.jsonl" });
  const all = rows.filter((r) => r.topicId === "all");
  // Each mean states its topic set: the questions with a value of that measure.
  assert.deepEqual(all.map((r) => r.topicSet), all.map((r) => `judged(n=${r.topics})`));
  assert.deepEqual(all.map((r) => [r.measure, r.value, r.topics]), [
    ["KPR", 0.5, 2],
    ["KPP", 0.75, 2],
    ["KPF", 0.5, 1],
    ["kp_supported", 0.5, 2],
    ["kp_omitted", 0.25, 2],
    ["kp_contradicted", 0.25, 2],
  ]);
  assert.deepEqual(rows[0], {
    run: "a",
    topicId: "q1",
    measure: "KPR",
    name: "KPR",
    cutoff: "",
    method: "keypoints",
    judge: "offline-lexical",
    source: "file:kp.jsonl",
    value: 0.5,
    topics: null,
    topicSet: "topic(id=q1)",
  });
  assert.equal(rows.filter((r) => r.topicId === "q3").map((r) => r.measure).join(), "KPP");
});

Deno.test("scoreKeyPoints: a key point without a usable label leaves its question and the run's mean absent", () => {
  const labels = [
    L("q1", "b", "k1", "yes"),
    L("q1", "b", "k2", "yes"),
    L("q1", "b", "k3", "no"),
    L("q1", "b", "k4", "yes"),
    L("q2", "b", "m1", "yes"), // m2 has no label
  ];
  const [b] = scoreKeyPoints(POINTS, labels, { runs: ["b"] });
  // q1: 3 of 4 entailed; q2: m2 undecided, so no KPR (not 1/2, not 1/1).
  assert.deepEqual(b.perQuestion.map((q) => [q.qid, q.KPR]), [["q1", 0.75], ["q2", NaN]]);
  assert.deepEqual(b.missing, ["q2"]);
  assert.equal(b.unlabelled, 1);
  assert.ok(Number.isNaN(b.aggregate.KPR), "no mean over q1 alone");
  const rows = keyPointMeasureRows([b], { judge: "j", source: "s" });
  assert.deepEqual(rows.map((r) => [r.topicId, r.measure, r.value]), [
    ["q1", "KPR", 0.75],
    ["q1", "kp_supported", 0.75],
    ["q1", "kp_omitted", 0.25],
    ["q1", "kp_contradicted", 0],
  ]);
  // Labelled fully, the mean is over both questions: (3/4 + 2/2) / 2.
  const [full] = scoreKeyPoints(POINTS, [...labels, L("q2", "b", "m2", "yes")], { runs: ["b"] });
  assert.equal(full.aggregate.KPR, (0.75 + 1) / 2);
  assert.deepEqual(full.missing, []);
});
