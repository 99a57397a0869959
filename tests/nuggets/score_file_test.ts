// `crux nuggets score` on an assignments file generated with known answers: counts of
// supported, partially supported, failed and unsupported nuggets chosen per answer, the
// expected scores computed from those counts (METRICS.md), several runs in one file.
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { nuggetsCommand } from "@lib/cli/commands/nuggets.ts";

interface Counts {
  vs: number; // vital supported
  vp: number; // vital partially supported
  vf: number; // vital failed
  vn: number; // vital not supported
  os: number;
  op: number;
  of: number;
  on: number;
}

function counts(run: number, topic: number): Counts {
  const v = (run + topic) % 5; // 0..4 vital nuggets: topic 0 of run 0 has none
  const vs = Math.min(v, topic % 3);
  const vp = Math.min(v - vs, run % 2);
  const vf = v - vs - vp > 0 && topic % 4 === 1 ? 1 : 0;
  return {
    vs,
    vp,
    vf,
    vn: v - vs - vp - vf,
    os: topic % 2,
    op: (topic + run) % 3 === 0 ? 2 : 0,
    of: run === 2 ? 1 : 0,
    on: 1,
  };
}

function expected(c: Counts) {
  const v = c.vs + c.vp + c.vf + c.vn;
  const n = v + c.os + c.op + c.of + c.on;
  return {
    strict_vital_score: v ? c.vs / v : 0,
    vital_score: v ? (c.vs + 0.5 * c.vp) / v : 0,
    strict_all_score: (c.vs + c.os) / n,
    all_score: (c.vs + c.os + 0.5 * (c.vp + c.op)) / n,
  };
}

function line(run: number, topic: number) {
  const c = counts(run, topic);
  const nuggets: { text: string; importance: string; assignment: string }[] = [];
  const add = (k: number, importance: string, assignment: string) => {
    for (let i = 0; i < k; i++) {
      nuggets.push({ text: `${importance} ${assignment} ${i}`, importance, assignment });
    }
  };
  // interleave okay and vital nuggets so order cannot matter
  add(c.on, "okay", "not_support");
  add(c.vs, "vital", "support");
  add(c.op, "okay", "partial_support");
  add(c.vp, "vital", "partial_support");
  add(c.of, "okay", "failed");
  add(c.vf, "vital", "failed");
  add(c.os, "okay", "support");
  add(c.vn, "vital", "not_support");
  return JSON.stringify({ qid: `q${topic}`, run_id: `run-${run}`, nuggets });
}

Deno.test("crux nuggets score equals the scores computed from the generated counts", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "generated.jsonl");
  const runs = 3, topics = 20;
  const lines = [];
  for (let t = 0; t < topics; t++) for (let r = 0; r < runs; r++) lines.push(line(r, t));
  await Deno.writeTextFile(file, lines.join("\n") + "\n");
  const io = memoryIo();
  const code = await main(
    ["nuggets", "score", "--assignments", file, "--per-query", "--format", "json"],
    io,
    [
      nuggetsCommand,
    ],
  );
  assert.equal(code, 0, io.stderr());
  const out = JSON.parse(io.stdout()).runs as {
    run_id: string;
    topics: number;
    aggregate: Record<string, number>;
    perQuery: ({ qid: string; run_id: string } & Record<string, number>)[];
  }[];
  assert.deepEqual(out.map((r) => [r.run_id, r.topics]), [["run-0", 20], ["run-1", 20], [
    "run-2",
    20,
  ]]);
  let noVital = 0, failed = 0;
  for (const [r, run] of out.entries()) {
    const sums = { strict_vital_score: 0, vital_score: 0, strict_all_score: 0, all_score: 0 };
    for (let t = 0; t < topics; t++) {
      const c = counts(r, t);
      if (c.vs + c.vp + c.vf + c.vn === 0) noVital++;
      failed += c.vf + c.of;
      const want = expected(c);
      const got = run.perQuery.find((p) => p.qid === `q${t}`)!;
      assert.equal(got.run_id, run.run_id);
      for (const k of Object.keys(want) as (keyof typeof want)[]) {
        assert.ok(
          Math.abs(got[k] - want[k]) < 1e-12,
          `${run.run_id} q${t} ${k}: ${got[k]} vs ${want[k]}`,
        );
        sums[k] += want[k];
      }
    }
    for (const k of Object.keys(sums) as (keyof typeof sums)[]) {
      assert.ok(Math.abs(run.aggregate[k] - sums[k] / topics) < 1e-12, `${run.run_id} ${k}`);
    }
  }
  assert.ok(noVital >= 10, "answers without vital nuggets are part of the file");
  assert.ok(failed >= 20, "failed labels are part of the file");
  await Deno.remove(dir, { recursive: true });
});
