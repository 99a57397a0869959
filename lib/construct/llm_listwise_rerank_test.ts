import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { evaluate } from "@lib/metrics/mod.ts";
import type { Qrel, RunRow } from "@lib/types/mod.ts";
import { type ServerChatRequest, startOpenAiServer } from "../../tests/support/openai_server.ts";
import { type ListwiseQuery, llmListwiseRerank } from "./llm_listwise_rerank.ts";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${String(i).padStart(3, "0")}`);
const query = (topicId: string, docs: string[]): ListwiseQuery => ({
  topicId,
  query: `query ${topicId}`,
  candidates: docs.map((docId) => ({ docId, text: `doc ${docId} text` })),
});

/** The prompt's passages, in window order. */
function windowDocs(req: ServerChatRequest): string[] {
  const prompt = req.messages.at(-1)!.content;
  return [...prompt.matchAll(/^\[(\d+)\] doc (\S+) text$/gm)].map((m) => m[2]);
}

/** A server answering each window with the order of `rank` (lower first). */
function scripted(rank: (docId: string) => number) {
  return startOpenAiServer({
    chat: (req) => {
      const docs = windowDocs(req);
      const order = [...docs.keys()].sort((a, b) => rank(docs[a]) - rank(docs[b]));
      return { content: order.map((i) => `[${i + 1}]`).join(" > ") };
    },
  });
}

async function memoryCache() {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  return {
    cache: await CallCache.open(connection),
    [Symbol.dispose]: () => (connection.closeSync(), db.closeSync()),
  };
}

/** A scripted target order: a fixed shuffle of the candidates. */
function shuffled(docs: string[]): string[] {
  const out = [...docs];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

Deno.test("listwise rerank recovers the scripted order; calls follow the formula; a re-run calls nothing", async () => {
  const docs = ids(100);
  const target = shuffled(docs);
  const pos = new Map(target.map((d, i) => [d, i]));
  await using server = scripted((d) => pos.get(d)!);
  using mem = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "ranker", cache: mem.cache });
  // One pass over 100 candidates: ceil((100 - 20) / 10) + 1 = 9 calls; the top 10 are final.
  const [one] = await llmListwiseRerank([query("t1", docs)], { client });
  assert.equal(one.counts.calls, 9);
  assert.equal(server.requests, 9);
  assert.deepEqual(one.docIds.slice(0, 10), target.slice(0, 10));
  assert.deepEqual([...one.docIds].sort(), docs);
  // Nine passes (81 calls) recover the whole scripted order.
  server.reset();
  const [full] = await llmListwiseRerank([query("t1", docs)], { client, passes: 9 });
  assert.deepEqual(full.docIds, target);
  assert.equal(full.counts.calls, 81);
  // The first pass repeats the earlier windows, and later passes meet windows already in
  // order that earlier passes sent: those come from the cache; no prompt is sent twice.
  assert.ok(server.requests <= 81 - 9, `${server.requests} requests`);
  assert.equal(new Set(server.log.map((e) => e.key)).size, server.requests);
  // A re-run with a new client on the same cache makes no call and gives the same ranking.
  server.reset();
  const again = new LlmClient({ baseUrl: server.url, model: "ranker", cache: mem.cache });
  const [rerun] = await llmListwiseRerank([query("t1", docs)], { client: again, passes: 9 });
  assert.deepEqual(rerun.docIds, target);
  assert.equal(server.requests, 0);
  // Calls per query for other N (window 20, stride 10, depth above N): 1, 1, 2, 3, 10.
  server.reset();
  const sizes = [7, 20, 21, 35, 110];
  const results = await llmListwiseRerank(
    sizes.map((n) => query(`n${n}`, ids(n))),
    { client, depth: 200 },
  );
  assert.deepEqual(results.map((r) => r.counts.calls), [1, 1, 2, 3, 10]);
  assert.equal(server.requests, 17);
  for (const [i, r] of results.entries()) {
    const expected = [...ids(sizes[i])].sort((a, b) => pos.get(a)! - pos.get(b)!);
    const top = Math.min(10, sizes[i]);
    assert.deepEqual(r.docIds.slice(0, top), expected.slice(0, top), `N = ${sizes[i]}`);
  }
  // Depth 30 of 100, window 20, stride 5: ceil(10 / 5) + 1 = 3 calls; the rest keep their order.
  const [cut] = await llmListwiseRerank([query("t1", docs)], { client, depth: 30, stride: 5 });
  assert.equal(cut.counts.calls, 3);
  assert.deepEqual(cut.docIds.slice(30), docs.slice(30));
});

Deno.test("listwise rerank repairs malformed permutations and counts unparsed and failed windows", async () => {
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      if (prompt.includes("query messy")) return { content: "[2] > [2] > [7] > [4]" };
      if (prompt.includes("query prose")) return { content: "All of them look relevant." };
      if (prompt.includes("query down")) return { status: 500 };
      return { content: "[1]" };
    },
  });
  using mem = await memoryCache();
  const client = new LlmClient({
    baseUrl: server.url,
    model: "ranker",
    cache: mem.cache,
    maxRetries: 0,
  });
  const docs = ids(5);
  const [messy, prose, down] = await llmListwiseRerank(
    [query("messy", docs), query("prose", docs), query("down", docs)],
    { client },
  );
  // [2], [4] first; repeated [2] and unknown [7] dropped; [1], [3], [5] appended in order.
  assert.deepEqual(messy.docIds, ["d001", "d003", "d000", "d002", "d004"]);
  assert.deepEqual(messy.counts, {
    calls: 1,
    missing: 3,
    repeated: 1,
    unknown: 1,
    unparsed: 0,
    failed: 0,
  });
  assert.deepEqual(prose.docIds, docs);
  assert.deepEqual(prose.counts, {
    calls: 1,
    missing: 0,
    repeated: 0,
    unknown: 0,
    unparsed: 1,
    failed: 0,
  });
  assert.deepEqual(down.docIds, docs);
  assert.equal(down.counts.failed, 1);
  assert.match(down.counts.firstError!, /HTTP 500/);
  // A re-run answers the parsed windows from the cache and asks again exactly the failed
  // (down) and the unparsed (prose) ones.
  server.reset();
  await llmListwiseRerank([query("messy", docs), query("prose", docs), query("down", docs)], {
    client,
  });
  assert.equal(server.requests, 2);
});

/** Greedy ideal alpha-nDCG ordering (alpha 0.5, ties to the larger id), written out here. */
function greedyIdeal(subtopics: Map<string, string[]>): string[] {
  const seen = new Map<string, number>();
  const left = new Set(subtopics.keys());
  const out: string[] = [];
  while (left.size) {
    let best = "";
    let bestGain = -1;
    for (const d of [...left].sort().reverse()) {
      const gain = subtopics.get(d)!.reduce((s, t) => s + 0.5 ** (seen.get(t) ?? 0), 0);
      if (gain > bestGain) [best, bestGain] = [d, gain];
    }
    out.push(best);
    left.delete(best);
    for (const t of subtopics.get(best)!) seen.set(t, (seen.get(t) ?? 0) + 1);
  }
  return out;
}

Deno.test("a listwise rerank ordering windows by known relevance reaches that ordering's alpha-nDCG", async () => {
  const docs = ids(40);
  const subtopics = new Map([
    ["d031", ["s1", "s2"]],
    ["d035", ["s3"]],
    ["d022", ["s1"]],
    ["d038", ["s4"]],
    ["d027", ["s2", "s3"]],
  ]);
  const ideal = greedyIdeal(subtopics);
  // By hand: d031 and d027 gain 2 (tie to the larger id), then d027 1.5, d038 1, d035 0.5, d022 0.5.
  assert.deepEqual(ideal, ["d031", "d027", "d038", "d035", "d022"]);
  const target = [...ideal, ...docs.filter((d) => !subtopics.has(d))];
  const pos = new Map(target.map((d, i) => [d, i]));
  await using server = scripted((d) => pos.get(d)!);
  using mem = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "ranker", cache: mem.cache });
  const [r] = await llmListwiseRerank([query("t", docs)], { client });
  const qrels: Qrel[] = [...subtopics].flatMap(([docId, subs]) =>
    subs.map((subtopic) => ({ topicId: "t", docId, subtopic, grade: 1 }))
  );
  const rows = (list: string[]): RunRow[] =>
    list.map((docId, i) => ({
      run: "r",
      topicId: "t",
      docId,
      rank: i + 1,
      score: list.length - i,
    }));
  const value = (list: string[]) =>
    evaluate(rows(list), ["alpha_nDCG@20"], { diversityQrels: qrels }).perTopic[0].value;
  const reranked = value(r.docIds);
  assert.equal(reranked, value(target));
  assert.equal(reranked, 1);
  // The first-stage order, with every relevant passage below rank 20, scored 0.
  assert.equal(value(docs), 0);
  assert.deepEqual(r.docIds.slice(0, 5), ideal);
});

Deno.test("an interrupted listwise rerank repeats at most the call in flight", async () => {
  const docs = ids(100);
  const target = shuffled(docs);
  const pos = new Map(target.map((d, i) => [d, i]));
  const controller = new AbortController();
  let seen = 0;
  await using server = startOpenAiServer({
    chat: (req) => {
      const docsIn = windowDocs(req);
      const order = [...docsIn.keys()].sort((a, b) => pos.get(docsIn[a])! - pos.get(docsIn[b])!);
      const content = order.map((i) => `[${i + 1}]`).join(" > ");
      // The fourth window is interrupted while its call is in flight.
      if (++seen === 4) {
        controller.abort(new Error("interrupted"));
        return { content, delayMs: 200 };
      }
      return { content };
    },
  });
  using mem = await memoryCache();
  const client = new LlmClient({ baseUrl: server.url, model: "ranker", cache: mem.cache });
  await assert.rejects(
    () => llmListwiseRerank([query("t1", docs)], { client, signal: controller.signal }),
    /interrupted/,
  );
  assert.equal(server.requests, 4);
  server.reset();
  const [r] = await llmListwiseRerank([query("t1", docs)], { client });
  // Three answered windows come from the cache; the one in flight and the other five are sent.
  assert.equal(server.requests, 6);
  assert.equal(r.counts.calls, 9);
  assert.deepEqual(r.docIds.slice(0, 10), target.slice(0, 10));
});

Deno.test("listwise rerank with a template chosen by name: RankZephyr's and RankVicuna's structures", async () => {
  const seen: ServerChatRequest[] = [];
  await using server = startOpenAiServer({
    chat: (req) => (seen.push(req), { content: "[3] > [1] > [2]" }),
  });
  const client = new LlmClient({ baseUrl: server.url, model: "ranker" });
  for (const template of ["rerank_rankzephyr", "rerank_rankvicuna"]) {
    const [r] = await llmListwiseRerank([query("t", ids(3))], { client, template });
    assert.deepEqual(r.docIds, ["d002", "d000", "d001"]);
  }
  assert.equal(seen.length, 2);
  assert.match(seen[0].messages[0].content, /^You are a ranking assistant/);
  assert.match(seen[1].messages[0].content, /^A conversation between a user and an assistant/);
  for (const req of seen) {
    assert.deepEqual(windowDocs(req), ["d000", "d001", "d002"]);
    assert.match(req.messages[1].content, /^Search query: query t\.$/m);
  }
  await assert.rejects(
    llmListwiseRerank([query("t", ids(3))], { client, template: "rerank_nope" }),
    /No prompt template "rerank_nope"/,
  );
});
