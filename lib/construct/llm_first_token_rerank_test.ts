import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import {
  type ScriptedToken,
  type ServerChatRequest,
  startOpenAiServer,
} from "../../tests/support/openai_server.ts";
import type { ListwiseQuery } from "./llm_listwise_rerank.ts";
import { llmFirstTokenRerank } from "./llm_first_token_rerank.ts";
import { countingClient, emptyUsage } from "./_counting_client.ts";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${String(i).padStart(3, "0")}`);
const query = (topicId: string, docs: string[]): ListwiseQuery => ({
  topicId,
  query: `query ${topicId}`,
  candidates: docs.map((docId) => ({ docId, text: `doc ${docId} text` })),
});
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The prompt's passages (label, doc id), in window order. */
function windowDocs(req: ServerChatRequest): [string, string][] {
  const prompt = req.messages.at(-1)!.content;
  return [...prompt.matchAll(/^\[([A-Z])\] doc (\S+) text$/gm)].map((m) => [m[1], m[2]]);
}

/**
 * The one generated token of a FIRST answer: the most likely label, with every label of the
 * window as an alternative, log-probability `-rank / 10` of its document (the scripted order).
 */
function firstTokenScript(window: [string, string][], rank: (d: string) => number) {
  const alts = window.map(([l, d]) => ({ token: l, logprob: -rank(d) / 10 }))
    .sort((a, b) => b.logprob - a.logprob);
  const tokens: ScriptedToken[] = [{ token: alts[0].token, logprob: alts[0].logprob, top: alts }];
  return tokens;
}

async function memoryCache() {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  return {
    cache: await CallCache.open(connection),
    [Symbol.dispose]: () => (connection.closeSync(), db.closeSync()),
  };
}

/** A fixed shuffle of the candidates: the scripted relevance order. */
function shuffled(docs: string[]): string[] {
  const out = [...docs];
  let seed = 11;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

Deno.test("FIRST mode over 100 candidates: one output token per call, the order from the label log-probabilities, cost from one token", async () => {
  const docs = ids(100);
  const target = shuffled(docs);
  const pos = new Map(target.map((d, i) => [d, i]));
  const asked: unknown[] = [];
  let lastBody: ServerChatRequest | undefined;
  await using server = startOpenAiServer({
    chat: (req) => {
      lastBody = req;
      asked.push([req.max_tokens, req.logprobs, req.top_logprobs]);
      const window = windowDocs(req);
      const script = firstTokenScript(window, (d) => pos.get(d)!);
      // One token generated, as asked: the most likely label.
      return { content: script[0].token, logprobs: script };
    },
  });
  using mem = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "first", cache: mem.cache });
  const usage = emptyUsage();
  // One pass over 100: ceil((100 - 20) / 10) + 1 = 9 calls; the top 10 are final.
  const [one] = await llmFirstTokenRerank([query("t1", docs)], {
    client: countingClient(client, usage),
  });
  assert.equal(one.counts.calls, 9);
  assert.equal(server.requests, 9);
  // Every call asks one token with 20 alternatives, over a window lettered A to T.
  assert.deepEqual(asked, Array(9).fill([1, true, 20]));
  assert.equal(windowDocs(lastBody!).map(([l]) => l).join(""), LETTERS.slice(0, 20));
  // Cost: one output token per call.
  assert.deepEqual([usage.calls, usage.completionTokens], [9, 9]);
  assert.deepEqual(one.docIds.slice(0, 10), target.slice(0, 10));
  assert.deepEqual(
    [one.counts.byLogprobs, one.counts.fallback, one.counts.unscored, one.fallback, one.note],
    [9, 0, 0, false, ""],
  );
  // Nine passes recover the whole scripted order.
  const [full] = await llmFirstTokenRerank([query("t1", docs)], { client, passes: 9 });
  assert.equal(full.counts.calls, 81);
  assert.deepEqual(full.docIds, target);
  // 45 candidates, two passes: (ceil((45 - 20) / 10) + 1) * 2 = 8 calls.
  const [small] = await llmFirstTokenRerank([query("t2", ids(45))], { client, passes: 2 });
  assert.equal(small.counts.calls, 8);
  // A re-run with a new client on the same cache sends nothing and ranks the same.
  server.reset();
  const again = new LlmClient({ baseUrl: server.url, model: "first", cache: mem.cache });
  const [rerun] = await llmFirstTokenRerank([query("t1", docs)], { client: again, passes: 9 });
  assert.equal(server.requests, 0);
  assert.deepEqual(rerun.docIds, target);
});

Deno.test("FIRST mode: labels missing from the alternatives follow in window order", async () => {
  await using server = startOpenAiServer({
    chat: () => ({
      content: "F",
      logprobs: [{
        token: "F",
        logprob: -0.1,
        top: [
          { token: "F", logprob: -0.1 },
          { token: " C", logprob: -0.5 },
          { token: " F", logprob: -0.9 },
          { token: "Sure", logprob: -1.2 },
        ],
      }],
    }),
  });
  const client = new LlmClient({ baseUrl: server.url, model: "first" });
  const [r] = await llmFirstTokenRerank([query("t", ids(6))], { client, topLogprobs: 4 });
  // F (-0.1), C (-0.5) by log-probabilities; then A, B, D, E in window order.
  assert.deepEqual(r.docIds, ["d005", "d002", "d000", "d001", "d003", "d004"]);
  assert.deepEqual([r.counts.byLogprobs, r.counts.unscored, r.counts.calls], [1, 4, 1]);
});

Deno.test("FIRST mode without log-probabilities asks again for the permutation, repairs it, flags it, and a re-run calls nothing", async () => {
  const tokens: unknown[] = [];
  await using server = startOpenAiServer({
    logprobs: false,
    chat: (req) => {
      tokens.push(req.max_tokens);
      return { content: req.max_tokens === 1 ? "C" : "C > A > C > Z" };
    },
  });
  using mem = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "first", cache: mem.cache });
  const [r] = await llmFirstTokenRerank([query("t", ids(4))], { client, fallbackTokens: 50 });
  assert.deepEqual(tokens, [1, 50]);
  // C, A; repeated C and unknown Z dropped; B, D missing, appended in input order.
  assert.deepEqual(r.docIds, ["d002", "d000", "d001", "d003"]);
  const { calls, missing, repeated, unknown, unparsed, fallback, byLogprobs } = r.counts;
  assert.deepEqual({ calls, missing, repeated, unknown, unparsed, fallback, byLogprobs }, {
    calls: 1,
    missing: 2,
    repeated: 1,
    unknown: 1,
    unparsed: 0,
    fallback: 1,
    byLogprobs: 0,
  });
  assert.equal(r.fallback, true);
  assert.match(r.note, /fell back to the generated permutation in 1 of 1 window\(s\)/);
  server.reset();
  const [again] = await llmFirstTokenRerank([query("t", ids(4))], { client, fallbackTokens: 50 });
  assert.deepEqual([server.requests, again.docIds, again.fallback], [0, r.docIds, true]);
});

Deno.test("FIRST mode: a token that names no label keeps the window's order, counted", async () => {
  await using server = startOpenAiServer({ chat: () => ({ content: "Sure" }) });
  const client = new LlmClient({ baseUrl: server.url, model: "first" });
  const [r] = await llmFirstTokenRerank([query("t", ids(5))], { client });
  assert.deepEqual(r.docIds, ids(5));
  assert.deepEqual([r.counts.noLabel, r.counts.unparsed, r.counts.fallback, r.fallback], [
    1,
    1,
    0,
    false,
  ]);
  await assert.rejects(
    llmFirstTokenRerank([query("t", ids(5))], { client, window: 27 }),
    /at most 26/,
  );
  await assert.rejects(
    llmFirstTokenRerank([query("t", ids(5))], { client, fallbackTokens: 0 }),
    /fallbackTokens must be a positive integer/,
  );
  assert.equal(LETTERS.length, 26);
});
