// The nugget steps against the loopback OpenAI-compatible server: windows, limits, re-asks,
// wrong-length repair, zero calls on a re-run and one label per nugget per answer.
import assert from "node:assert/strict";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import {
  assignNuggets,
  createNuggets,
  labelNuggets,
  llmNuggetBackend,
  relevantPassages,
  scoreNuggets,
} from "@lib/nuggets/mod.ts";
import { type ServerChatRequest, startOpenAiServer } from "../support/openai_server.ts";
import { nuggetWorkspace } from "@lib/nuggets/testdata/nugget_workspace.ts";

const json = (s: string, re: RegExp) => JSON.parse(re.exec(s)![1]) as string[];
const kind = (u: string) =>
  u.includes("New passages:") ? "create" : u.includes("\nText:\n") ? "assign" : "label";

/** Scripted model: 4 nuggets per passage; odd-numbered nuggets vital; support by position. */
function rule(req: ServerChatRequest, info: { count: number }) {
  const u = req.messages.at(-1)!.content;
  if (kind(u) === "create") {
    const list = json(u, /Current nugget list \(JSON\):\n([\s\S]*?)\n\nNew passages:/);
    const passages = [...u.matchAll(/^\[(\d+)\] (\S+ \S+ \S+)/gm)].map((m) => m[2]);
    const added = passages.flatMap((p) => [1, 2, 3, 4].map((k) => `${p} fact ${k}`));
    return { content: JSON.stringify([...list, ...added]) };
  }
  const nuggets = json(u, /Nuggets \(JSON\):\n([\s\S]*?)\n\nFor each/);
  if (kind(u) === "label") {
    if (nuggets.includes("Gas pressure builds fact 1")) return { content: "I cannot decide." };
    return { content: JSON.stringify(nuggets.map((n) => (/[13]$/.test(n) ? "vital" : "okay"))) };
  }
  const labels = nuggets.map((_, i) =>
    (["support", "partial_support", "not_support"] as const)[i % 3]
  );
  if (u.includes("Comets are icy bodies") && info.count === 1) {
    return { content: JSON.stringify(labels.slice(1)) }; // one label short: must be re-asked
  }
  if (u.includes("Volcanoes erupt.")) return { content: "[support, support" }; // never parses
  if (u.includes("Magma rises")) {
    // names its nuggets, in reverse order: must be aligned, not shifted
    return {
      content: JSON.stringify(nuggets.map((n, i) => ({ nugget: n, label: labels[i] })).reverse()),
    };
  }
  return { content: JSON.stringify(labels) };
}

Deno.test("nugget steps through the test server: windows, limits, re-asks, repair, cache", async () => {
  const bodies: ServerChatRequest[] = [];
  await using server = startOpenAiServer({
    chat: (req, info) => {
      bodies.push(req);
      return rule(req, info);
    },
  });
  const { ws, dir } = await nuggetWorkspace();
  try {
    const cache = await CallCache.open(ws.connection);
    const client = new LlmClient({ baseUrl: server.url, model: "judge-m", cache, maxRetries: 0 });
    const backend = llmNuggetBackend(client, { reasks: 2 });
    const sources = await relevantPassages(ws);
    const run = async () => {
      const c = await createNuggets(ws, sources, { backend });
      const l = await labelNuggets(ws, { backend, origin: c.origin });
      const a = await assignNuggets(ws, { backend, origin: c.origin });
      return { c, l, a };
    };
    const first = await run();
    const requests = server.requests;

    // Creation: t1 has 13 passages (grade >= 1 by default, the redundant one last) -> windows of 10 and 3.
    assert.deepEqual(first.c, {
      origin: "created:judge-m",
      topics: 2,
      nuggets: 42,
      windows: 3,
      failed: 0,
    });
    const shown = await ws.query<{ t: string; w: number; n: number }>(
      `SELECT topic_id AS t, window_index::INT AS w, count(*)::INT AS n FROM nugget_passages
       GROUP BY ALL ORDER BY t, w`,
    );
    assert.deepEqual(shown, [{ t: "t1", w: 0, n: 10 }, { t: "t1", w: 1, n: 3 }, {
      t: "t2",
      w: 0,
      n: 3,
    }]);
    const order = await ws.query<{ p: string }>(
      `SELECT passage_id AS p FROM nugget_passages WHERE topic_id = 't1' ORDER BY ordinal LIMIT 5`,
    );
    // grade 3 first (passages 0, 3, 6, 9), then grade 2 in passage order
    assert.deepEqual(order.map((r) => r.p), ["t1:0#0", "t1:3#3", "t1:6#6", "t1:9#9", "t1:1#1"]);
    const count = async (t: string) =>
      (await ws.query<{ n: number }>(`SELECT count(*)::INT n FROM nuggets WHERE topic_id = $1`, [
        t,
      ]))[0].n;
    assert.equal(await count("t1"), 30); // 40 after the first window, cut to 30
    assert.equal(await count("t2"), 12);

    // Importance: t1 3 windows, t2 2 windows (the first failing: 3 requests, 2 re-asks at 0.2).
    assert.equal(first.l.windows, 5);
    assert.equal(first.l.failed, 10);
    const kept = await ws.query<{ importance: string; n: number }>(
      `SELECT importance, count(*)::INT n FROM nuggets WHERE topic_id = 't1' AND kept GROUP BY ALL ORDER BY 1`,
    );
    assert.deepEqual(kept, [{ importance: "okay", n: 5 }, { importance: "vital", n: 15 }]);
    const raw = await ws.query<{ r: string }>(
      `SELECT DISTINCT importance_raw AS r FROM nuggets WHERE importance = 'failed'`,
    );
    assert.deepEqual(raw, [{ r: "I cannot decide." }]);

    // Assignment: 4 answers with nuggets (t3 has none), each 2 windows (20 and 12 nuggets).
    assert.equal(first.a.windows, 8);
    assert.equal(first.a.withoutNuggets, 1);
    assert.equal(first.a.labels, 2 * 20 + 2 * 12);
    assert.equal(first.a.failed, 12); // "Volcanoes erupt." never parses
    const perAnswer = await ws.query<{ run: string; t: string; n: number; d: number }>(
      `SELECT run, topic_id AS t, count(*)::INT n, count(DISTINCT ordinal)::INT d
       FROM nugget_assignments GROUP BY ALL ORDER BY run, t`,
    );
    assert.deepEqual(perAnswer, [
      { run: "direct", t: "t1", n: 20, d: 20 },
      { run: "direct", t: "t2", n: 12, d: 12 },
      { run: "rag", t: "t1", n: 20, d: 20 },
      { run: "rag", t: "t2", n: 12, d: 12 },
    ]);
    // The short window was re-asked and its labels are in order; the named one aligned.
    const labels = async (run: string, t: string) =>
      (await ws.query<{ label: string }>(
        `SELECT a.label FROM nugget_assignments a JOIN nuggets n USING (topic_id, origin, ordinal)
         WHERE a.run = $1 AND a.topic_id = $2
         ORDER BY n.kept DESC, CASE n.importance WHEN 'vital' THEN 0 WHEN 'okay' THEN 1 ELSE 2 END, n.ordinal`,
        [run, t],
      )).map((r) => r.label);
    const cycle = (n: number) =>
      Array.from({ length: n }, (_, i) => ["support", "partial_support", "not_support"][i % 3]);
    assert.deepEqual(await labels("direct", "t1"), [...cycle(10), ...cycle(10)]);
    assert.deepEqual(await labels("rag", "t2"), [...cycle(10), ...cycle(2)]);
    assert.deepEqual(await labels("direct", "t2"), Array(12).fill("failed"));

    // Request counts: creation 3; labels 5 + 2 re-asks; assignment 8 + 2 short windows re-asked once
    // + the 2 unparseable windows re-asked twice each.
    assert.equal(requests, 3 + (5 + 2) + (8 + 2 + 4));
    const of = (k: string) => bodies.filter((b) => kind(b.messages.at(-1)!.content) === k);
    assert.deepEqual([of("create").length, of("label").length, of("assign").length], [3, 7, 14]);
    const sizes = (k: string) =>
      of(k).filter((b) => b.temperature === 0).map((b) =>
        k === "create"
          ? [...b.messages.at(-1)!.content.matchAll(/^\[\d+\] /gm)].length
          : json(b.messages.at(-1)!.content, /Nuggets \(JSON\):\n([\s\S]*?)\n\nFor each/).length
      ).sort((a, b) => a - b);
    assert.deepEqual(sizes("create"), [3, 3, 10]);
    assert.deepEqual(sizes("label"), [2, 10, 10, 10, 10]);
    assert.deepEqual(sizes("assign"), [2, 2, 10, 10, 10, 10, 10, 10]);
    // The second creation window of t1 carries the running list of 30.
    const second = of("create").find((b) =>
      /^\[3\] /m.test(b.messages.at(-1)!.content) &&
      !/^\[4\] /m.test(b.messages.at(-1)!.content) && b.messages.at(-1)!.content.includes("comet")
    );
    assert.equal(
      json(second!.messages.at(-1)!.content, /Current nugget list \(JSON\):\n([\s\S]*?)\n\nNew/)
        .length,
      30,
    );
    // Re-asks go at temperature 0.2 with a new seed.
    const reasked = bodies.filter((b) => b.temperature !== 0);
    assert.equal(reasked.length, 2 + 2 + 4);
    assert.ok(reasked.every((b) => b.temperature === 0.2));

    const scores = await scoreNuggets(ws, { origin: "created:judge-m", judge: "judge-m" });
    assert.deepEqual(scores.map((s) => [s.run, s.perAnswer.length, s.failedLabels]), [
      ["direct", 2, 12],
      ["rag", 2, 0],
    ]);

    // A re-run is served from the cache, except the last re-asks of the calls still
    // unparsed, asked again (the rule answers them alike): identical rows.
    const before = await ws.query(`SELECT * FROM nugget_assignments ORDER BY ALL`);
    const stillUnparsed = await ws.query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM llm_calls WHERE status = 'unparsed'
         AND (params->>'seed')::INTEGER = 2`,
    );
    const again = await run();
    assert.equal(server.requests - requests, stillUnparsed[0].n);
    assert.equal(stillUnparsed[0].n, 3);
    assert.deepEqual(again.a, first.a);
    assert.deepEqual(await ws.query(`SELECT * FROM nugget_assignments ORDER BY ALL`), before);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
