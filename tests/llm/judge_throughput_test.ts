import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { judgeCommand } from "@lib/cli/commands/judge.ts";
import { startOpenAiServerInWorker } from "../support/openai_server_worker.ts";
import { ratingOf, readJsonl, writePairs } from "./_fixtures.ts";

Deno.test("judge answerability: 2,000 pairs at 50 ms latency sustain >= 90% of 160 req/s; rerun sends nothing", async () => {
  const dir = await Deno.makeTempDir();
  // The server runs on its own thread, as a model server would.
  await using server = await startOpenAiServerInWorker({
    latencyMs: 50,
    rule: { module: new URL("./_fixtures.ts", import.meta.url).href, name: "ratingRule" },
  });
  const input = await writePairs(dir, 2000);
  const out = join(dir, "out.jsonl");
  const args = [
    "judge",
    "answerability",
    "--input",
    input,
    "--out",
    out,
    "--model",
    "judge-m",
    "--base-url",
    server.url,
    "--concurrency",
    "8",
    "--workspace",
    join(dir, "ws"),
  ];
  const io = memoryIo();
  const t0 = performance.now();
  assert.equal(await main(args, io, [judgeCommand]), 0, io.stderr());
  const seconds = (performance.now() - t0) / 1000;
  // Sustained rate: answers per second between the first and the last answer the
  // server sent (start-up, reading and writing files excluded).
  const { log, requests } = await server.stats();
  const span = (log.at(-1)!.at - log[0].at) / 1000;
  const sustained = (log.length - 1) / span;
  console.log(
    `throughput: sustained ${sustained.toFixed(1)} req/s (${
      (sustained / 1.6).toFixed(1)
    }% of 160), ` +
      `end to end ${(2000 / seconds).toFixed(1)} req/s in ${seconds.toFixed(2)} s`,
  );
  assert.equal(requests, 2000);
  assert.ok(sustained >= 0.9 * 160, `sustained rate ${sustained.toFixed(1)} req/s is below 144`);
  const first = await Deno.readTextFile(out);
  const rows = await readJsonl(out);
  assert.equal(rows.length, 2000);
  rows.forEach((r, i) => {
    assert.equal(r.id, `p${i}`);
    assert.equal(r.rating, ratingOf(i));
    assert.equal(r.status, "ok");
  });
  assert.match(io.stdout(), /Judged 2000 pairs with judge-m: 2000 ok, 0 unparsed, 0 failed/);

  const io2 = memoryIo();
  assert.equal(await main(args, io2, [judgeCommand]), 0, io2.stderr());
  assert.equal((await server.stats()).requests, 2000, "the second run must not send any request");
  assert.equal(await Deno.readTextFile(out), first);
  await Deno.remove(dir, { recursive: true });
});
