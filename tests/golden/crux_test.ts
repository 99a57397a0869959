/**
 * CRUX measures against the independent Python reference
 * (reference/crux_reference.py) on the synthetic CRUX-format dataset in
 * crux/fixtures: Cov@10, Cov@oracle, alpha-nDCG over sub-questions, P@10 and
 * nDCG@10 from the CRUX qrels, Den(w=0.5)@10 with whitespace token counts.
 */
import assert from "node:assert/strict";
import { byTopic, compareValues, crux, here } from "./_golden.ts";

interface CruxGolden {
  measures: string[];
  unparseableRatings: number;
  requiredSubset: Record<string, { kept: string[]; grades: Record<string, number> }>;
  requiredSubsetAnswerable: Record<string, Record<string, number>>;
  diversityQrels: { positives: Record<string, Record<string, number[]>> };
  runs: {
    run: string;
    topics: number;
    aggregate: Record<string, number>;
    perQuery: Record<string, Record<string, number>>;
    skipped: { topicId: string; measure: string }[];
  }[];
}

const golden = JSON.parse(Deno.readTextFileSync(here("crux/golden.json"))) as CruxGolden;
const TOLERANCE = 1e-9;
const fixture = (rel: string) => here(`crux/fixtures/${rel}`);

for (const g of golden.runs) {
  Deno.test(`CRUX golden: ${g.run}`, async () => {
    const { json, stderr } = await crux([
      "--run",
      here(g.run),
      "--judgments",
      fixture("judgments.jsonl"),
      "--qrels",
      fixture("crux_qrels_pr.txt"),
      "--corpus",
      fixture("corpus.jsonl"),
      "--tokenizer",
      "whitespace",
      "-m",
      golden.measures.join(" "),
    ]);
    assert.equal(json.topics, g.topics);
    const problems = compareValues(
      { aggregate: json.aggregate, perQuery: byTopic(json.perQuery) },
      g,
      TOLERANCE,
    );
    assert.deepEqual(problems, [], `${g.run}:\n${problems.join("\n")}`);
    assert.match(
      stderr,
      new RegExp(`# ${golden.unparseableRatings} unparseable ratings \\(-1\\) counted as 0`),
    );
  });
}

Deno.test("CRUX golden qrels: the qrels file holds the reference required subset", async () => {
  const lines = (await Deno.readTextFile(fixture("crux_qrels_pr.txt"))).trim().split("\n");
  const fromFile: Record<string, Record<string, number>> = {};
  for (const line of lines) {
    const [topic, , pid, grade] = line.split(" ");
    (fromFile[topic] ??= {})[pid] = Number(grade);
  }
  const expected = Object.fromEntries(
    Object.entries(golden.requiredSubset).map(([t, s]) => [t, s.grades]),
  );
  assert.deepEqual(fromFile, expected);
});

Deno.test("CRUX golden selection: requiredSubset reproduces the reference (original and answerable-only redundancy rules) and diversity qrels", async () => {
  const { readJudgments } = await import("@lib/formats/mod.ts");
  const { requiredSubset } = await import("@lib/metrics/mod.ts");
  const judgments = await readJudgments(fixture("judgments.jsonl"));
  const result = requiredSubset(
    judgments.map((j) => ({ topicId: j.topicId, itemId: j.itemId, ratings: j.ratings })),
    { tau: 3 },
  );
  const topics = Object.keys(golden.requiredSubset).sort();
  assert.deepEqual([...result.required.keys()].sort(), topics);
  for (const t of topics) {
    assert.deepEqual(result.required.get(t), golden.requiredSubset[t].kept, `kept order of ${t}`);
  }
  const grades: Record<string, Record<string, number>> = {};
  for (const q of result.qrels) (grades[q.topicId] ??= {})[q.docId] = q.grade;
  assert.deepEqual(
    grades,
    Object.fromEntries(topics.map((t) => [t, golden.requiredSubset[t].grades])),
  );
  const answerable = requiredSubset(
    judgments.map((j) => ({ topicId: j.topicId, itemId: j.itemId, ratings: j.ratings })),
    { tau: 3, redundancy: "answerable" },
  );
  const answerableGrades: Record<string, Record<string, number>> = {};
  for (const q of answerable.qrels) (answerableGrades[q.topicId] ??= {})[q.docId] = q.grade;
  assert.deepEqual(answerableGrades, golden.requiredSubsetAnswerable);
  const positives: Record<string, Record<string, number[]>> = {};
  for (const q of result.diversityQrels) {
    if (q.grade !== 1) continue;
    ((positives[q.topicId] ??= {})[q.docId] ??= []).push(Number(q.subtopic));
  }
  for (const t of Object.keys(positives)) {
    for (const d of Object.keys(positives[t])) positives[t][d].sort((a, b) => a - b);
  }
  const expected = golden.diversityQrels.positives;
  for (const t of Object.keys(expected)) {
    for (const d of Object.keys(expected[t])) {
      expected[t][d] = [...expected[t][d]].sort((a, b) => a - b);
    }
  }
  assert.deepEqual(positives, expected);
});
