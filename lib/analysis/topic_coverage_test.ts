import assert from "node:assert/strict";
import { tableMarkdown } from "@lib/report/mod.ts";
import { topicCoverage } from "./topic_coverage.ts";
import { tinyData } from "./testdata/tiny_data.ts";
import { humanCoverageRows } from "./human_coverage_rows.ts";

Deno.test("topicCoverage: per-topic Cov(y) of every condition", () => {
  const r = topicCoverage(tinyData());
  const v = (topic: string, cond: string) =>
    r.data.values.find((x) => x.topicId === topic && x.condition === cond)?.value;
  assert.equal(v("t1", "a"), 1);
  assert.equal(v("t2", "a"), 0.5);
  assert.equal(v("t2", "b"), 0);
  assert.equal(v("t1", "Oracle result"), 1);
  assert.equal(r.data.human.length, 0);
  const md = tableMarkdown(r.table!);
  assert.ok(md.includes("| t2 | 0.500 | 0.000 | 1.000 | 0.500 | 1.000 | 1.000 |"), md);
});

/** Labels: a's coverage of t1 given; b's judgments of t1 and t2. */
const HUMAN = [
  { topicId: "t1", condition: "a", coverage: 0.25 },
  { topicId: "t1", condition: "b", ratings: [5, 2, 5] }, // A(3) = {q1, q2}: q1 only -> 0.5
  { topicId: "t2", condition: "b", ratings: [3, 3] }, // both -> 1
];

/** tinyData with the rows the `measure:human` stage stores for HUMAN at tau 3 and 5. */
function withHuman(notes: string[] = []) {
  const data = tinyData();
  const rows = humanCoverageRows(data, HUMAN, {
    judge: "human-labels",
    taus: [3, 5],
    onNote: (m) => notes.push(m),
  });
  return { ...data, measures: [...(data.measures ?? []), ...rows] };
}

Deno.test("humanCoverageRows: coverage per (topic, condition) at each tau; a mean only over a complete topic set", () => {
  const notes: string[] = [];
  const rows = withHuman(notes).measures!.filter((r) => r.source === "human");
  assert.deepEqual(
    rows.map((r) => [r.run, r.topicId, r.measure, r.value, r.topics, r.topicSet, r.judge]),
    [
      ["a", "t1", "Cov", 0.25, null, "topic(id=t1)", "human-labels"],
      ["b", "t1", "Cov", 0.5, null, "topic(id=t1)", "human-labels"],
      ["b", "t2", "Cov", 1, null, "topic(id=t2)", "human-labels"],
      // (0.5 + 1) / 2 over both topics with an answerable sub-question at tau 3.
      ["b", "all", "Cov", 0.75, 2, "answerable(tau=3,n=2)", "human-labels"],
      // A given coverage is the same at every tau; at 5 A(t1) = {q1} (rated 5), A(t2) = {q1, q2}.
      ["a", "t1", "Cov(tau=5)", 0.25, null, "topic(id=t1)", "human-labels"],
      ["b", "t1", "Cov(tau=5)", 1, null, "topic(id=t1)", "human-labels"],
      ["b", "t2", "Cov(tau=5)", 0, null, "topic(id=t2)", "human-labels"],
      ["b", "all", "Cov(tau=5)", 0.5, 2, "answerable(tau=5,n=2)", "human-labels"],
    ],
  );
  // a has no label of t2: no mean, and the note names the topic.
  assert.deepEqual(notes, [
    'Human labels "human-labels" of "a": no mean Cov; 1 of the 2 topics with an answerable sub-question have no label (t2)',
    'Human labels "human-labels" of "a": no mean Cov(tau=5); 1 of the 2 topics with an answerable sub-question have no label (t2)',
  ]);
});

Deno.test("topicCoverage: the stored human coverage overlaid, at the view's tau", () => {
  const r = topicCoverage(withHuman());
  assert.equal(r.data.humanCondition, "b");
  assert.deepEqual(r.data.human, [
    { topicId: "t1", condition: "b", value: 0.5 },
    { topicId: "t2", condition: "b", value: 1 },
  ]);
  const at5 = topicCoverage(withHuman(), { tau: 5 });
  assert.deepEqual(at5.data.human.map((h) => h.value), [1, 0]);
  const values = (r.figure!.data as { values: { condition: string; _panel: string }[] }).values;
  const drawn = values.filter((v) => v.condition === "human: b");
  assert.deepEqual(drawn.map((v) => v._panel), ["b", "b"]);
  assert.equal(r.table!.columns.at(-1)!.label, "human: b");
  // Each human cell names the stored row it shows.
  assert.deepEqual(r.cells!.find((c) => c.row === "t2" && c.column === "__human")!.key, {
    run: "b",
    source: "human",
    judge: "human-labels",
    measure: "Cov",
    topicId: "t2",
  });
  // a's labels only: t2 is blank with its reason.
  const a = topicCoverage(withHuman(), { humanCondition: "a" });
  assert.equal(
    a.cells!.find((c) => c.row === "t2" && c.column === "__human")!.reason,
    "no human label of this topic's report",
  );
  assert.throws(
    () => topicCoverage(withHuman(), { humanCondition: "c" }),
    /none given \(conditions with labels: a, b\)/,
  );
  // Without stored human rows, no human column.
  assert.equal(topicCoverage(tinyData()).data.human.length, 0);
});
