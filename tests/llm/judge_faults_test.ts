import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { judgeCommand } from "@lib/cli/commands/judge.ts";
import { type Reply, startOpenAiServer } from "../support/openai_server.ts";
import { itemOf, ratingOf, readJsonl, writePairs } from "./_fixtures.ts";

const N = 1000;
const MAX_RETRIES = 2;

/** Scripted faults by item number (first attempt unless noted). */
function faulty(i: number, count: number): Reply {
  if (i % 100 === 5) return { status: 500 }; // always fails -> "failed"
  if (i % 20 === 0 && count === 1) return { status: 429, retryAfter: 0.01 };
  if (i % 20 === 10 && count === 1) return { status: 500 };
  if (i % 50 === 7 && count === 1) return { drop: true };
  if (i % 50 === 9 && count === 1) return { malformedBody: "<html>bad gateway" };
  if (i % 20 === 3) return { content: "Fairly relevant." }; // unparseable
  return { content: `Rating: ${ratingOf(i)}` };
}

Deno.test("judge answerability: 429/500 faults, dropped connections and malformed outputs", async () => {
  const dir = await Deno.makeTempDir();
  await using server = startOpenAiServer({
    latencyMs: 2,
    chat: (req, { count }) => faulty(itemOf(req.messages.at(-1)!.content), count),
  });
  const input = await writePairs(dir, N);
  const out = join(dir, "out.jsonl");
  const io = memoryIo();
  const code = await main(
    [
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
      "--max-retries",
      String(MAX_RETRIES),
      "--workspace",
      join(dir, "ws"),
    ],
    io,
    [judgeCommand],
  );
  assert.equal(code, 0, io.stderr());
  const rows = await readJsonl(out);
  assert.equal(rows.length, N, "one line per pair");
  assert.deepEqual(
    rows.map((r) => r.id),
    Array.from({ length: N }, (_, i) => `p${i}`),
    "input order, no duplicates",
  );

  const tally = { ok: 0, unparsed: 0, failed: 0 };
  rows.forEach((r, i) => {
    tally[r.status as keyof typeof tally]++;
    if (i % 100 === 5) {
      assert.equal(r.status, "failed");
      assert.equal(r.rating, -1);
      assert.equal(r.raw, null);
      assert.match(String(r.error), /Failed after 3 attempt\(s\): HTTP 500/);
    } else if (i % 20 === 3) {
      assert.deepEqual([r.status, r.rating, r.raw], [
        "unparsed",
        -1,
        "Fairly relevant.",
      ]);
    } else {
      assert.deepEqual([r.status, r.rating], ["ok", ratingOf(i)]);
    }
  });
  assert.deepEqual(tally, { ok: 940, unparsed: 50, failed: 10 });

  // Per key: the answered request is the last one; failed keys stop after 1 + MAX_RETRIES.
  const byKey = new Map<string, typeof server.log[number][]>();
  for (const entry of server.log) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
  assert.equal(byKey.size, N);
  let retried = 0;
  for (const [key, entries] of byKey) {
    const i = itemOf(key);
    const answered = entries.findIndex((e) => e.answered);
    if (i % 100 === 5) assert.equal(entries.length, 1 + MAX_RETRIES);
    else assert.equal(answered, entries.length - 1, `request after success for item ${i}`);
    if (entries.length > 1) retried++;
  }
  const faults = server.log.filter((e) => !e.answered).length;
  console.log(
    `fault tally: ${tally.ok} ok, ${tally.unparsed} unparsed, ${tally.failed} failed; ` +
      `${server.requests} requests for ${N} pairs, ${faults} faulty answers, ${retried} pairs retried`,
  );
  assert.match(io.stdout(), /940 ok, 50 unparsed, 10 failed/);
  await Deno.remove(dir, { recursive: true });
});
