import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { subqCommand } from "./subq.ts";

async function run(args: string[]) {
  const io = memoryIo();
  const code = await main(["subq", ...args], io, [subqCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

const line = (
  system: string,
  q: string,
  sub: string,
  type: string,
  answered: boolean,
  extra = {},
) => JSON.stringify({ question_id: q, sub_question: sub, type, system, answered, ...extra });

Deno.test("crux subq score: #1-#6, all, counts and the rating by hand; missing inputs are null", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "cov.jsonl");
  const a = (sub: string, type: string, ans: boolean, ret: boolean, share?: number, pos?: number) =>
    line("A", "q1", sub, type, ans, {
      retrieved: ret,
      ...(share !== undefined ? { chunk_share: share } : {}),
      ...(pos !== undefined ? { position: pos } : {}),
    });
  await Deno.writeTextFile(
    file,
    [
      a("c1", "core", true, true, 0.5, 10),
      a("c2", "core", true, false, 0, 30),
      a("c3", "core", false, true, 0.25),
      a("c4", "core", false, false, 0),
      a("b1", "background", true, true, undefined, 50),
      a("b2", "background", false, false),
      a("f1", "follow-up", true, false, undefined, 90),
      a("f2", "follow-up", false, true),
      line("B", "q1", "c1", "core", true),
      line("B", "q1", "c2", "core", false),
      line("B", "q2", "c1", "core", true),
      line("B", "q2", "b1", "background", true),
    ].join("\n") + "\n",
  );
  const r = await run(["score", "--judgments", file, "--format", "json"]);
  assert.equal(r.code, 0, r.err);
  const { A, B } = JSON.parse(r.out).systems;
  assert.deepEqual(A.answered, { core: 0.5, background: 0.5, "follow-up": 0.5, all: 0.5 });
  assert.deepEqual(A.retrieved, { core: 0.5, background: 0.5, "follow-up": 0.5, all: 0.5 });
  assert.deepEqual(A.counts, { core: 4, background: 2, "follow-up": 2 });
  // #3 (1/4)/(2/4); #4 (1/4)/(2/4); #5 mean(0.5, 0) - mean(0.25, 0); #6 90 - (20 + 50)/2.
  assert.deepEqual(A.metrics, { m3: 0.5, m4: 0.5, m5: 0.125, m6: 55 });
  // Rating 1 x 0.5 + 0.5 x 0.5 - 1 x 0.5.
  assert.equal(A.rating, 0.25);
  assert.deepEqual(B.answered, { core: 2 / 3, background: 1, "follow-up": null, all: 0.75 });
  assert.equal(B.retrieved, undefined);
  assert.deepEqual(B.metrics, { m3: null, m4: null, m5: null, m6: null });
  // q1: core 1/2 -> 0.5; q2: core 1 + background 0.5 x 1 -> 1.5; mean 1.
  assert.equal(B.rating, 1);
  const table = await run(["score", "--judgments", file]);
  assert.match(table.out, /^B\s+0\.6667\s+1\.0000\s+-\s+0\.7500\s+-\s+-\s+-\s+-\s+-\s+1\.0000$/m);
});

Deno.test("crux subq score: malformed and repeated lines are named", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "bad.jsonl");
  await Deno.writeTextFile(file, line("A", "q1", "c1", "central", true) + "\n");
  const bad = await run(["score", "--judgments", file]);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /bad\.jsonl:1: type: expected one of core, background, follow-up/);
  await Deno.writeTextFile(
    file,
    line("A", "q1", "c1", "core", true) + "\n" + line("A", "q1", "c1", "core", false) + "\n",
  );
  const twice = await run(["score", "--judgments", file]);
  assert.equal(twice.code, 1);
  assert.match(twice.err, /system "A" judges sub-question "c1" of "q1" twice \(lines 1 and 2/);
});
