import assert from "node:assert/strict";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { rerankRun } from "./rerank_run.ts";

/** Topic t ("storm coast") with passages a, b, c ranked a > b > c by "bm25". */
async function workspace(): Promise<{ ws: Workspace; dir: string }> {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  await ws.upsert("topics", [{ topicId: "t", request: "storm coast" }]);
  await ws.upsert("passages", [
    { passageId: "a", topicId: "t", docId: "d0", text: "text of a: the mayor spoke" },
    { passageId: "b", topicId: "t", docId: "d1", text: "text of b: a flood warning" },
    { passageId: "c", topicId: "t", docId: "d2", text: "text of c: storm hits the coast" },
  ]);
  await ws.insert("runs", [
    { run: "bm25", topicId: "t", docId: "a", rank: 1, score: 3 },
    { run: "bm25", topicId: "t", docId: "b", rank: 2, score: 2 },
    { run: "bm25", topicId: "t", docId: "c", rank: 3, score: 1 },
  ]);
  return { ws, dir };
}

Deno.test({
  name:
    "rerankRun pointwise: grades order the run; calls and tokens counted; a re-run sends nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const grade: Record<string, number> = { a: 0, b: 2, c: 3 };
    await using server = startOpenAiServer({
      chat: (req) => {
        const id = /text of (\w)/.exec(req.messages.at(-1)!.content)![1];
        return {
          content: `##final score: ${grade[id]}`,
          usage: { prompt_tokens: 100, completion_tokens: 4 },
        };
      },
    });
    const { ws, dir } = await workspace();
    try {
      const client = new LlmClient({
        baseUrl: server.url,
        model: "grader",
        cache: await CallCache.open(ws.connection),
      });
      const cfg = { name: "pw", from: "bm25", method: "pointwise" } as const;
      const s = await rerankRun(ws, cfg, { client });
      assert.deepEqual((await ws.runRows("pw")).map((r) => [r.docId, r.rank]), [
        ["c", 1],
        ["b", 2],
        ["a", 3],
      ]);
      assert.deepEqual(s.usage, {
        calls: 3,
        embedded: 0,
        cached: 0,
        failed: 0,
        promptTokens: 300,
        completionTokens: 12,
      });
      assert.deepEqual(s.counts, { calls: 3, unparsed: 0, failed: 0 });
      assert.equal(server.requests, 3);
      // Recomputed after deletion: every grade from the cache, the same tokens counted.
      await ws.exec(`DELETE FROM runs WHERE run = 'pw'`);
      const again = await rerankRun(ws, cfg, { client });
      assert.equal(server.requests, 3);
      assert.equal(again.usage.cached, 3);
      assert.equal(again.usage.promptTokens, 300);
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "rerankRun listwise: one window call orders the run; a failed call stores nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    let fail = true;
    await using server = startOpenAiServer({
      chat: (req) => {
        if (fail) return { status: 400, message: "bad request" };
        // Order the window: passages mentioning "storm", then "flood", then the rest.
        const lines = req.messages.at(-1)!.content.split("\n");
        const ids = lines.map((l) => /^\[(\d+)\] (.*)$/.exec(l)).filter((m) => m !== null)
          .map((m) => ({ k: Number(m![1]), text: m![2] }));
        const rank = (x: string) => (x.includes("storm") ? 0 : x.includes("flood") ? 1 : 2);
        ids.sort((x, y) => rank(x.text) - rank(y.text));
        return { content: ids.map((x) => `[${x.k}]`).join(" > ") };
      },
    });
    const { ws, dir } = await workspace();
    try {
      const client = new LlmClient({
        baseUrl: server.url,
        model: "ranker",
        cache: await CallCache.open(ws.connection),
        maxRetries: 0,
      });
      const cfg = { name: "lw", from: "bm25", method: "listwise" } as const;
      await assert.rejects(
        () => rerankRun(ws, cfg, { client }),
        /Stage rerank, run "lw" \(from "bm25", method "listwise"\): 1 model call\(s\) failed .*nothing stored/,
      );
      assert.equal((await ws.runRows("lw")).length, 0);
      fail = false;
      const s = await rerankRun(ws, cfg, { client });
      assert.deepEqual((await ws.runRows("lw")).map((r) => r.docId), ["c", "b", "a"]);
      // Three candidates fit one window: one call, no repair.
      assert.equal(s.usage.calls, 1);
      assert.deepEqual(
        [s.counts.calls, s.counts.missing, s.counts.repeated, s.counts.unknown],
        [1, 0, 0, 0],
      );
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "rerankRun lexical: the request expanded by the sub-questions, no model",
  sanitizeResources: false,
  fn: async () => {
    const { ws, dir } = await workspace();
    try {
      // The request alone: only c matches ("storm", "coast"); a and b keep first-stage order.
      const alone = await rerankRun(ws, { name: "lx0", from: "bm25", method: "lexical" });
      assert.deepEqual((await ws.runRows("lx0")).map((r) => r.docId), ["c", "a", "b"]);
      assert.deepEqual(alone.counts, { withoutSubquestions: 1 });
      await ws.upsert("questions", [
        {
          topicId: "t",
          questionId: "q1",
          kind: "subquestion",
          ordinal: 1,
          text: "Was a flood warning issued?",
        },
      ]);
      const s = await rerankRun(ws, { name: "lx", from: "bm25", method: "lexical" });
      // Expanded: b matches "flood" and "warning", c "storm" and "coast" (every term in one
      // passage: equal idf); b is the shorter passage, so BM25 (b = 0.4) puts it first.
      assert.deepEqual((await ws.runRows("lx")).map((r) => [r.docId, r.score]), [
        ["b", 3],
        ["c", 2],
        ["a", 1],
      ]);
      assert.equal(s.usage.calls, 0);
      assert.deepEqual(s.counts, { withoutSubquestions: 0 });
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "rerankRun first-token: the first label's log-probabilities order the run; without them the fallback is counted",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    // Scripted relevance c > b > a, told only through the log-probabilities of the one
    // token asked; the permutation asked in the fallback names the opposite order, so the
    // run shows which of the two was read.
    const rank: Record<string, number> = { c: 0, b: 1, a: 2 };
    const chat = (req: { messages: { content: string }[]; max_tokens?: number }) => {
      const window = [...req.messages.at(-1)!.content.matchAll(/^\[([A-Z])\] text of (\w)/gm)]
        .map((m) => [m[1], m[2]] as const);
      const alts = window.map(([label, id]) => ({ token: label, logprob: -rank[id] }))
        .sort((x, y) => y.logprob - x.logprob);
      const byText = [...window].sort((x, y) => rank[y[1]] - rank[x[1]]);
      if (req.max_tokens !== 1) return { content: byText.map(([l]) => l).join(" > ") };
      return {
        content: alts[0].token,
        logprobs: [{ token: alts[0].token, logprob: alts[0].logprob, top: alts }],
      };
    };
    for (const logprobs of [true, false]) {
      await using server = startOpenAiServer({ chat, logprobs });
      const { ws, dir } = await workspace();
      try {
        const client = new LlmClient({
          baseUrl: server.url,
          model: "ranker",
          cache: await CallCache.open(ws.connection),
        });
        const cfg = { name: "ft", from: "bm25", method: "first-token" } as const;
        const s = await rerankRun(ws, cfg, { client });
        const order = (await ws.runRows("ft")).map((r) => r.docId);
        assert.deepEqual(
          order,
          logprobs ? ["c", "b", "a"] : ["a", "b", "c"],
          `logprobs ${logprobs}`,
        );
        // One call of one output token; the fallback asks a second time.
        assert.equal(s.usage.calls, logprobs ? 1 : 2);
        if (logprobs) assert.equal(s.usage.completionTokens, 1);
        assert.equal(s.counts.fallback ?? 0, logprobs ? 0 : 1);
        assert.equal(s.counts.byLogprobs ?? 0, logprobs ? 1 : 0);
      } finally {
        ws.close();
        await Deno.remove(dir, { recursive: true });
      }
    }
  },
});
