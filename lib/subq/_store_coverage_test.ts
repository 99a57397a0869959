import assert from "node:assert/strict";
import { CallCache, LlmClient, type ProgressEvent } from "@lib/llm/mod.ts";
import { openWorkspace, readSubqCoverage } from "@lib/store/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { type CoverageItem, judgeAndStoreCoverage } from "./_store_coverage.ts";

/** Seven items: texts t0..t6, each with one sub-question; t3 is the "invented" span. */
const items = new Map<string, CoverageItem>(
  Array.from({ length: 7 }, (_, i) => {
    const text = i === 3 ? "invented text about rain" : `The dam ${i} failed in May.`;
    const subQuestion = `When did dam ${i} fail?`;
    return [`k${i}\0${subQuestion}`, { key: `k${i}`, subQuestion, text }];
  }),
);

Deno.test("coverage is judged and stored slice by slice, progress counting over every item", async () => {
  const dir = await Deno.makeTempDir();
  await using server = startOpenAiServer({
    chat: (req) => {
      const u = req.messages.at(-1)!.content;
      if (u.includes("dam 5")) return { content: "no idea" }; // unparsed after re-asks
      if (u.includes("invented")) {
        return { content: '{"label": "answered", "span": "words that are not there"}' };
      }
      return { content: '{"label": "answered", "span": "failed in May"}' };
    },
  });
  const ws = await openWorkspace(dir);
  try {
    const client = new LlmClient({
      baseUrl: server.url,
      model: "m",
      cache: await CallCache.open(ws.connection),
    });
    const events: ProgressEvent[] = [];
    const stored = await judgeAndStoreCoverage(ws, items, "judge-a", {
      client,
      reasks: 1,
      slice: 3,
      keepAnswers: true,
      onProgress: (e) => events.push(e),
    });
    assert.deepEqual(
      [stored.judged, stored.flagged, stored.unparsed, stored.failed],
      [7, 1, 1, 0],
    );
    assert.deepEqual([...stored.answered!.values()], [true, true, true, true, true, null, true]);
    const rows = await readSubqCoverage(ws, "judge-a");
    assert.equal(rows.length, 7);
    assert.equal(rows.find((r) => r.k.startsWith("k5\0"))?.answered, null);
    // Three slices (3 + 3 + 1 items), one progress scale: totals of 7, done never going back.
    assert.ok(events.length >= 3);
    assert.ok(events.every((e) => e.total === 7));
    for (let i = 1; i < events.length; i++) assert.ok(events[i].done >= events[i - 1].done);
    assert.equal(events.at(-1)!.done, 7);
    // 7 items, and the unparsed one re-asked once.
    assert.equal(server.requests, 8);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("coverage slices judged before a failure stay stored", async () => {
  const dir = await Deno.makeTempDir();
  const abort = new AbortController();
  await using server = startOpenAiServer({
    chat: (req) => {
      // The third slice's item stops the job. That slice starts only once the first
      // has been judged; the second, judged alongside, may or may not have ended.
      if (req.messages.at(-1)!.content.includes("dam 6")) {
        abort.abort(new Error("stopped by the user"));
      }
      return { content: '{"label": "answered", "span": "failed in May"}' };
    },
  });
  const ws = await openWorkspace(dir);
  try {
    const client = new LlmClient({ baseUrl: server.url, model: "m", concurrency: 1 });
    await assert.rejects(
      judgeAndStoreCoverage(ws, items, "judge-b", { client, slice: 3, signal: abort.signal }),
      /stopped by the user/,
    );
    const rows = await readSubqCoverage(ws, "judge-b");
    const stored = rows.map((r) => r.k.split("\0")[0]).sort();
    const first = ["k0", "k1", "k2"];
    assert.ok(
      [first, [...first, "k3", "k4", "k5"]].some((x) => x.join() === stored.join()),
      `stored ${stored.join()}`,
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("coverage judges the next slice while a slice ends", async () => {
  const dir = await Deno.makeTempDir();
  await using server = startOpenAiServer({
    latencyMs: 30,
    chat: () => ({ content: '{"label": "answered", "span": "failed in May"}' }),
  });
  const ws = await openWorkspace(dir);
  try {
    const client = new LlmClient({ baseUrl: server.url, model: "m", concurrency: 8 });
    const stored = await judgeAndStoreCoverage(ws, items, "judge-c", { client, slice: 3 });
    assert.equal(stored.judged, 7);
    // Slices of 3: requests of the second slice were on the wire with the first's.
    const peak = server.peakInFlight;
    assert.ok(peak > 3 && peak <= 6, `peak ${peak}`);
    const rows = await readSubqCoverage(ws, "judge-c");
    assert.deepEqual(rows.map((r) => r.k.split("\0")[0]).sort(), [
      "k0",
      "k1",
      "k2",
      "k3",
      "k4",
      "k5",
      "k6",
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
