import assert from "node:assert/strict";
import { join } from "node:path";
import { startOpenAiServer } from "../support/openai_server.ts";
import { ratingOf, ratingRule, readJsonl, writePairs } from "./_fixtures.ts";

const N = 2000;
const CONCURRENCY = 8;
// The real entry point; `crux judge`, `crux llm` and `crux batch` are registered there.
const CLI = new URL("../../lib/cli/main.ts", import.meta.url).pathname;

Deno.test("judge answerability: SIGKILL at random points, then resume, judges every pair once", async () => {
  const dir = await Deno.makeTempDir();
  await using server = startOpenAiServer({ latencyMs: 20, chat: ratingRule });
  const input = await writePairs(dir, N);
  const out = join(dir, "out.jsonl");
  const args = [
    "run",
    "-A",
    CLI,
    "judge",
    "answerability",
    "--input",
    input,
    "--out",
    out,
    "--model",
    "m",
    "--base-url",
    server.url,
    "--concurrency",
    String(CONCURRENCY),
    "--workspace",
    join(dir, "ws"),
  ];
  const spawn = () =>
    new Deno.Command(Deno.execPath(), { args, stdout: "piped", stderr: "piped" }).spawn();

  let kills = 0;
  const killedAt: number[] = [];
  /** Calls seen before each kill, to attribute repeats to the kill that caused them. */
  const seenAtKill: Map<string, number>[] = [];
  const repeatsOf = (seen: Map<string, number>) =>
    [...seen].filter(([key, c]) => server.countFor(key) > c).length;
  const perKill: number[] = [];
  for (let round = 0; round < 3; round++) {
    const child = spawn();
    const before = server.requests;
    // Kill once the run has sent between 150 and 550 requests (a random point mid-job).
    const target = before + 150 + Math.floor(Math.random() * 400);
    for (let waited = 0; server.requests < target && waited < 30_000; waited += 10) {
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill("SIGKILL");
    const status = await child.status;
    assert.equal(status.signal, "SIGKILL");
    kills++;
    killedAt.push(server.requests);
    if (round > 0) perKill.push(repeatsOf(seenAtKill[round - 1]));
    seenAtKill.push(new Map(server.counts));
  }
  const final = await spawn().output();
  assert.equal(final.code, 0, new TextDecoder().decode(final.stderr));
  perKill.push(repeatsOf(seenAtKill[seenAtKill.length - 1]));

  const rows = await readJsonl(out);
  assert.equal(rows.length, N);
  rows.forEach((r, i) =>
    assert.deepEqual([r.id, r.status, r.rating], [`p${i}`, "ok", ratingOf(i)])
  );
  const repeated = [...server.counts.values()].filter((c) => c > 1).length;
  const maxCount = Math.max(...server.counts.values());
  console.log(
    `kill/resume: ${kills} kills after ${
      killedAt.join(", ")
    } requests; ${server.requests} requests ` +
      `for ${N} pairs; ${repeated} pairs sent twice (in flight at a kill; per kill ${
        perKill.join(", ")
      }), max ${maxCount} per pair`,
  );
  // The contract, kill by kill: a kill re-sends at most the calls on the wire.
  for (const [i, r] of perKill.entries()) {
    assert.ok(r <= CONCURRENCY, `kill ${i + 1} re-sent ${r} calls, over ${CONCURRENCY}`);
  }
  assert.equal(server.counts.size, N);
  // Only calls on the wire at a kill may repeat: every answer is appended to the
  // workspace's journal the moment it arrives, so at most `concurrency` per kill.
  assert.ok(repeated <= kills * CONCURRENCY, `${repeated} repeated pairs`);
  assert.ok(maxCount <= 1 + kills);
  assert.equal(server.requests, N + [...server.counts.values()].reduce((a, c) => a + c - 1, 0));
  await Deno.remove(dir, { recursive: true });
});
