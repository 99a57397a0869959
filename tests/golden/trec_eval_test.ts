/**
 * The evaluator equals trec_eval 10.0 to 4 decimals: every fixture x {default,
 * -c, -l 2}, every per-topic value, every aggregate and the number of topics.
 * Goldens and the commands that produced them: README.md.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { byTopic, compareValues, crux, FOUR_DECIMALS, here, sha256 } from "./_golden.ts";
import { trecFixtures } from "./_trec_cases.ts";
import type { TrecGolden } from "./convert_trec_eval.ts";

const fixtures = new Map(trecFixtures().map((f) => [f.name, f]));
const goldenFiles = [...Deno.readDirSync(here("trec"))]
  .filter((e) => e.isFile && e.name.endsWith(".json"))
  .map((e) => e.name)
  .sort();

let generated: string | undefined;

/** Paths of a fixture's run and qrels: stored files, or the large ones written to a temp dir. */
async function inputs(golden: TrecGolden): Promise<{ run: string; qrels: string }> {
  const f = fixtures.get(golden.fixture);
  assert.ok(f, `golden ${golden.fixture} has no fixture in _trec_cases.ts`);
  assert.equal(
    sha256(f.run),
    golden.inputs.run.sha256,
    `${golden.fixture}.run differs from the run the golden was computed for`,
  );
  assert.equal(
    sha256(f.qrels),
    golden.inputs.qrels.sha256,
    `${golden.fixture}.qrels differs from the golden's`,
  );
  assert.equal(
    sha256(f.trecEvalRun),
    golden.inputs.trecEvalRun.sha256,
    `${golden.fixture}: trec_eval's input changed`,
  );
  if (f.stored) {
    const run = here(golden.inputs.run.file);
    assert.equal(
      sha256(await Deno.readFile(run)),
      golden.inputs.run.sha256,
      `${run} is stale: run make_fixtures.ts`,
    );
    return { run, qrels: here(golden.inputs.qrels.file) };
  }
  generated ??= await Deno.makeTempDir({ prefix: "golden-trec-" });
  const run = join(generated, `${f.name}.run`);
  const qrels = join(generated, `${f.name}.qrels`);
  await Deno.writeTextFile(run, f.run);
  await Deno.writeTextFile(qrels, f.qrels);
  return { run, qrels };
}

for (const file of goldenFiles) {
  const golden = JSON.parse(Deno.readTextFileSync(here(`trec/${file}`))) as TrecGolden;
  Deno.test(`trec_eval 10.0 golden: ${golden.fixture} (${golden.variant})`, async () => {
    const { run, qrels } = await inputs(golden);
    const measures = Object.keys(golden.aggregate);
    const args = ["--run", run, "--qrels", qrels, "-m", measures.join(" ")];
    if (golden.options.complete) args.push("--complete");
    const { json } = await crux(args);
    assert.equal(json.topics, golden.topics, `${file}: number of topics averaged`);
    const problems = compareValues(
      { aggregate: json.aggregate, perQuery: byTopic(json.perQuery) },
      golden,
      FOUR_DECIMALS,
    );
    assert.deepEqual(problems, [], `${file} (${golden.command}):\n${problems.join("\n")}`);
  });
}

Deno.test("trec_eval goldens cover every fixture and variant", () => {
  const expected = [...fixtures.keys()].flatMap((n) =>
    ["base", "complete", "rel2"].map((v) => `${n}.${v}.json`)
  );
  assert.deepEqual(goldenFiles, expected.sort());
});

Deno.test({
  name: "cleanup of generated trec fixtures",
  fn: async () => {
    if (generated) await Deno.remove(generated, { recursive: true });
  },
});
