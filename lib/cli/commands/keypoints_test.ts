import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { keypointsCommand } from "./keypoints.ts";

async function run(args: string[]) {
  const io = memoryIo();
  const code = await main(["keypoints", ...args], io, [keypointsCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

const jsonl = (...xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";
const kp = (id: string, mergedFrom: string[] = []) => ({
  id,
  text: `point ${id}`,
  doc_id: "d1",
  spans: [`point ${id}`],
  merged_from: mergedFrom,
});

async function files(entailments: unknown[]) {
  const dir = await Deno.makeTempDir();
  const points = join(dir, "keypoints.jsonl");
  await Deno.writeTextFile(
    points,
    jsonl(
      { qid: "q1", keypoints: [kp("k1", ["a1", "a2"]), kp("k2"), kp("k3"), kp("k4")] },
      { qid: "q2", keypoints: [kp("m1"), kp("m2")] },
      { qid: "q3", keypoints: [] }, // no key points: left out of KPR
    ),
  );
  const ent = join(dir, "entailments.jsonl");
  await Deno.writeTextFile(ent, jsonl(...entailments));
  return { points, ent };
}

Deno.test("crux keypoints score: KPR by hand, a missing line scores 0, several runs", async () => {
  const { points, ent } = await files([
    {
      qid: "q1",
      run_id: "a",
      labels: [{ keypoint_id: "k1", label: "yes" }, { keypoint_id: "k2", label: "neutral" }, {
        keypoint_id: "k3",
        label: "yes",
      }, { keypoint_id: "k4", label: "no" }],
    },
    {
      qid: "q2",
      run_id: "a",
      labels: [{ keypoint_id: "m1", label: "yes" }, { keypoint_id: "m2", label: "yes" }],
    },
    { qid: "q1", run_id: "b", labels: [{ keypoint_id: "k1", label: "yes" }] },
  ]);
  const r = await run([
    "score",
    "--keypoints",
    points,
    "--entailments",
    ent,
    "--format",
    "json",
    "--per-query",
  ]);
  assert.equal(r.code, 0, r.err);
  const [a, b] = JSON.parse(r.out).runs;
  // Run a: q1 2/4, q2 2/2 -> KPR 0.75 over 2 questions (q3 has no key points).
  assert.equal(a.run_id, "a");
  assert.equal(a.aggregate.KPR, 0.75);
  assert.equal(a.topics, 2);
  assert.deepEqual(a.perQuery.map((p: { qid: string; KPR: number }) => [p.qid, p.KPR]), [[
    "q1",
    0.5,
  ], ["q2", 1]]);
  assert.equal(a.aggregate.KPP, null);
  assert.equal(a.aggregate.supported, null);
  // Run b: q1 1/4 (three unlabelled), q2 has no line -> 0: KPR 0.125, both reported.
  assert.equal(b.aggregate.KPR, 0.125);
  assert.match(
    r.err,
    /# b: no entailment line for 1 question\(s\) with key points \(scored 0\): q2/,
  );
  assert.match(r.err, /# b: 3 key points without a label \(not covered\)/);
});

Deno.test("crux keypoints score: the three-way labels give supported / omitted / contradicted rates", async () => {
  const { points, ent } = await files([
    {
      qid: "q1",
      run_id: "a",
      labels: [
        { keypoint_id: "k1", label: "supported" },
        { keypoint_id: "k2", label: "contradicted" },
        { keypoint_id: "k3", label: "omitted" },
        { keypoint_id: "k4", label: "supported" },
      ],
    },
    {
      qid: "q2",
      run_id: "a",
      labels: [{ keypoint_id: "m1", label: "omitted" }, { keypoint_id: "m2", label: "supported" }],
    },
  ]);
  const r = JSON.parse(
    (await run(["score", "--keypoints", points, "--entailments", ent, "--format", "json"])).out,
  );
  // q1: 2/4 supported, 1/4 omitted, 1/4 contradicted; q2: 1/2, 1/2, 0. Means over questions.
  assert.deepEqual(r.aggregate, {
    KPR: 0.5,
    KPP: null,
    KPF: null,
    supported: 0.5,
    omitted: 0.375,
    contradicted: 0.125,
  });
  assert.deepEqual(Object.keys(r), ["aggregate", "topics"]);
});

Deno.test("crux keypoints score: an unknown key point or label is an error with file and line", async () => {
  const { points, ent } = await files([
    { qid: "q1", run_id: "a", labels: [{ keypoint_id: "k1", label: "yes" }] },
    { qid: "q2", run_id: "a", labels: [{ keypoint_id: "k9", label: "yes" }] },
  ]);
  const unknown = await run(["score", "--keypoints", points, "--entailments", ent]);
  assert.equal(unknown.code, 1);
  assert.match(
    unknown.err,
    /entailments\.jsonl:2: labels: key point "k9" is not a key point of question "q2"/,
  );
  const bad = await files([{
    qid: "q1",
    run_id: "a",
    labels: [{ keypoint_id: "k1", label: "maybe" }],
  }]);
  const label = await run(["score", "--keypoints", bad.points, "--entailments", bad.ent]);
  assert.equal(label.code, 1);
  assert.match(
    label.err,
    /entailments\.jsonl:1: labels\[0\]\.label: expected one of yes, no, neutral, supported, omitted, contradicted/,
  );
});
