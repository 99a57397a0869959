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
