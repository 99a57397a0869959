/**
 * alpha-nDCG against its published reference values, and goldens from
 * the independent Python implementation (reference/alpha_ndcg.py) on seeded
 * diversity-qrels fixtures.
 */
import assert from "node:assert/strict";
import { byTopic, compareValues, crux, here } from "./_golden.ts";

interface DiversityGolden {
  results: {
    qrels: string;
    run: string;
    topics: number;
    aggregate: Record<string, number>;
    perQuery: Record<string, Record<string, number>>;
  }[];
}

const golden = JSON.parse(Deno.readTextFileSync(here("diversity/golden.json"))) as DiversityGolden;

/** The Python goldens keep full precision; the comparison is far tighter than 4 decimals. */
const TOLERANCE = 1e-9;

Deno.test("alpha-nDCG equals the published reference values", async () => {
  const qrels = here("diversity/fixtures/reference_two.qrels");
  const d0 = await crux([
    "--run",
    here("diversity/fixtures/reference_two.d0.run"),
    "--div-qrels",
    qrels,
    "-m",
    "alpha_nDCG@10",
  ]);
  assert.ok(Math.abs(d0.json.aggregate["alpha_nDCG@10"]! - 0.8637574337885664) < 1e-12);
  const d1 = await crux([
    "--run",
    here("diversity/fixtures/reference_two.d1.run"),
    "--div-qrels",
    qrels,
    "-m",
    "alpha_nDCG@10",
  ]);
  assert.ok(Math.abs(d1.json.aggregate["alpha_nDCG@10"]! - 0.4318787168942832) < 1e-12);
  const abcd = await crux([
    "--run",
    here("diversity/fixtures/reference_abcd.adeb.run"),
    "--div-qrels",
    here("diversity/fixtures/reference_abcd.qrels"),
    "-m",
    "alpha_nDCG@5",
  ]);
  assert.equal(Number(abcd.json.aggregate["alpha_nDCG@5"]!.toFixed(4)), 0.7869);
});

for (const g of golden.results) {
  Deno.test(`alpha-nDCG golden: ${g.run}`, async () => {
    const measures = Object.keys(g.aggregate);
    const { json } = await crux([
      "--run",
      here(g.run),
      "--div-qrels",
      here(g.qrels),
      "-m",
      measures.join(" "),
    ]);
    assert.equal(json.topics, g.topics);
    const problems = compareValues(
      { aggregate: json.aggregate, perQuery: byTopic(json.perQuery) },
      g,
      TOLERANCE,
    );
    assert.deepEqual(problems, [], `${g.run}:\n${problems.join("\n")}`);
  });
}
