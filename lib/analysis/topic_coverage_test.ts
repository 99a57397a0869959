import assert from "node:assert/strict";
import { tableMarkdown } from "@lib/report/mod.ts";
import { topicCoverage } from "./topic_coverage.ts";
import { tinyData } from "./testdata/tiny_data.ts";

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

Deno.test("topicCoverage: human labels overlaid, judgments turned into coverage at tau", () => {
  const human = [
    { topicId: "t1", condition: "a", coverage: 0.25 },
    { topicId: "t1", condition: "b", ratings: [5, 2, 5] }, // A(3) = {q1, q2}: q1 only -> 0.5
    { topicId: "t2", condition: "b", ratings: [3, 3] }, // both -> 1
  ];
  const r = topicCoverage(tinyData(), { human });
  assert.equal(r.data.humanCondition, "b");
  assert.deepEqual(r.data.human, [
    { topicId: "t1", condition: "b", value: 0.5 },
    { topicId: "t2", condition: "b", value: 1 },
  ]);
  const at5 = topicCoverage(tinyData(), { human, tau: 5 }); // A(5) of t1 = {q1}
  assert.deepEqual(at5.data.human.map((h) => h.value), [1, 0]);
  const values = (r.figure!.data as { values: { condition: string; _panel: string }[] }).values;
  const drawn = values.filter((v) => v.condition === "human: b");
  assert.deepEqual(drawn.map((v) => v._panel), ["b", "b"]);
  assert.equal(r.table!.columns.at(-1)!.label, "human: b");
  assert.throws(
    () => topicCoverage(tinyData(), { human, humanCondition: "c" }),
    /none given \(conditions with labels: a, b\)/,
  );
});
