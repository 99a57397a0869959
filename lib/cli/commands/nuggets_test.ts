import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { nuggetsCommand } from "./nuggets.ts";
import { readNuggetScores } from "@lib/formats/mod.ts";

const n = (importance: string, assignment: string) => ({
  text: `${importance} ${assignment}`,
  importance,
  assignment,
});

async function run(args: string[]) {
  const io = memoryIo();
  const code = await main(["nuggets", ...args], io, [nuggetsCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} vs ${b}`);

Deno.test("crux nuggets score: the reference case, failed labels, no vital nuggets, several runs", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "assignments.jsonl");
  const lines = [
    // The published reference answer: strict_vital 0.5, vital 0.75, strict_all 1/3, all 0.5.
    {
      qid: "q1",
      run_id: "a",
      nuggets: [n("vital", "support"), n("vital", "partial_support"), n("okay", "not_support")],
    },
    // failed counts as not_support; no vital nugget gives 0 for both vital scores.
    { qid: "q2", run_id: "a", nuggets: [n("okay", "support"), n("okay", "failed")] },
    { qid: "q1", run_id: "b", nuggets: [n("vital", "failed"), n("okay", "partial_support")] },
  ];
  await Deno.writeTextFile(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const json = await run(["score", "--assignments", file, "--format", "json", "--per-query"]);
  assert.equal(json.code, 0, json.err);
  const [a, b] = JSON.parse(json.out).runs;
  assert.equal(a.run_id, "a");
  assert.equal(a.topics, 2);
  const q1 = a.perQuery.find((p: { qid: string }) => p.qid === "q1");
  assert.deepEqual([q1.strict_vital_score, q1.vital_score, q1.all_score], [0.5, 0.75, 0.5]);
  close(q1.strict_all_score, 1 / 3);
  const q2 = a.perQuery.find((p: { qid: string }) => p.qid === "q2");
  assert.deepEqual([q2.strict_vital_score, q2.vital_score, q2.strict_all_score, q2.all_score], [
    0,
    0,
    0.5,
    0.5,
  ]);
  close(a.aggregate.strict_vital_score, 0.25);
  close(a.aggregate.vital_score, 0.375);
  close(a.aggregate.strict_all_score, (1 / 3 + 0.5) / 2);
  close(a.aggregate.all_score, 0.5);
  assert.deepEqual(b.aggregate, {
    strict_vital_score: 0,
    vital_score: 0,
    strict_all_score: 0,
    all_score: 0.25,
  });
  // One run: the single-run shape, perQuery only when asked.
  await Deno.writeTextFile(join(dir, "one.jsonl"), JSON.stringify(lines[0]) + "\n");
  const one = JSON.parse(
    (await run(["score", "--assignments", join(dir, "one.jsonl"), "--format", "json"])).out,
  );
  assert.deepEqual(Object.keys(one), ["aggregate", "topics"]);
  assert.equal(one.aggregate.vital_score, 0.75);
  // The scores JSONL, with an "all" row per run.
  const out = join(dir, "scores.jsonl");
  assert.equal((await run(["score", "--assignments", file, "--out", out])).code, 0);
  const scores = await readNuggetScores(out);
  assert.deepEqual(scores.map((s) => [s.runId, s.qid]), [["a", "q1"], ["a", "q2"], ["a", "all"], [
    "b",
    "q1",
  ], ["b", "all"]]);
  assert.equal(scores[2].vital, 0.375);
  const table = await run(["score", "--assignments", file]);
  assert.match(table.out, /^a\s+0\.2500\s+0\.3750\s+0\.4167\s+0\.5000\s+2$/m);
});

Deno.test("crux nuggets score: malformed files are named with line and field", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "bad.jsonl");
  await Deno.writeTextFile(
    file,
    JSON.stringify({ qid: "q1", run_id: "a", nuggets: [n("vital", "supported")] }) + "\n",
  );
  const r = await run(["score", "--assignments", file]);
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /bad\.jsonl:1: nuggets\[0\]\.assignment: expected one of support, partial_support, not_support, failed/,
  );
  const twice = join(dir, "twice.jsonl");
  const line = JSON.stringify({ qid: "q1", run_id: "a", nuggets: [n("vital", "support")] });
  await Deno.writeTextFile(twice, `${line}\n${line.replace('support"}', 'not_support"}')}\n`);
  const t = await run(["score", "--assignments", twice]);
  assert.equal(t.code, 1);
  assert.match(t.err, /run "a" has two assignment lines for query "q1"/);
  assert.equal((await run(["score"])).code, 2);
});
