import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { setwiseRerank } from "@lib/retrieval/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { llmSetwiseRerank } from "./llm_setwise_rerank.ts";
import type { ListwiseQuery } from "./llm_listwise_rerank.ts";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${String(i).padStart(3, "0")}`);
const query = (topicId: string, docs: string[]): ListwiseQuery => ({
  topicId,
  query: `query ${topicId}`,
  candidates: docs.map((docId) => ({ docId, text: `doc ${docId} text` })),
});

Deno.test("setwise rerank recovers the scripted top k; comparisons counted; a re-run calls nothing", async () => {
  const docs = ids(30);
  // Scripted relevance: odd-numbered documents from the bottom up, then the even ones.
  const target = [...docs.filter((_, i) => i % 2).reverse(), ...docs.filter((_, i) => !(i % 2))];
  const pos = new Map(target.map((d, i) => [d, i]));
  const styles = [(l: string) => l, (l: string) => `Passage ${l}`, (l: string) => `[${l}]`];
  let turn = 0;
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      const set = [...prompt.matchAll(/^Passage ([A-Z]): doc (\S+) text$/gm)];
      const best = set.reduce((a, b) => (pos.get(b[2])! < pos.get(a[2])! ? b : a));
      return { content: styles[turn++ % 3](best[1]) };
    },
  });
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    const cache = await CallCache.open(connection);
    const client = new LlmClient({ baseUrl: server.url, model: "ranker", cache });
    const [r] = await llmSetwiseRerank([query("t", docs)], { client, c: 4, k: 10 });
    assert.deepEqual(r.docIds.slice(0, 10), target.slice(0, 10));
    // The rest follow in first-stage order.
    const top = new Set(target.slice(0, 10));
    assert.deepEqual(r.docIds.slice(10), docs.filter((d) => !top.has(d)));
    // The comparisons equal those of the same heap sort with the scripted order as chooser.
    const reference = await setwiseRerank(
      docs,
      (set) =>
        Promise.resolve({
          best: set.indexOf([...set].sort((a, b) => pos.get(a)! - pos.get(b)!)[0]),
        }),
      { c: 4, k: 10 },
    );
    assert.deepEqual(r.counts, {
      comparisons: reference.counts.comparisons,
      unparsed: 0,
      failed: 0,
    });
    assert.equal(server.requests, reference.counts.comparisons);
    server.reset();
    const [again] = await llmSetwiseRerank([query("t", docs)], { client, c: 4, k: 10 });
    assert.deepEqual(again.docIds, r.docIds);
    assert.equal(server.requests, 0);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});

Deno.test("setwise rerank counts answers naming no passage of the set", async () => {
  await using server = startOpenAiServer({
    chat: () => ({ content: "Both passages are relevant, E perhaps." }),
  });
  const client = new LlmClient({ baseUrl: server.url, model: "ranker" });
  const [r] = await llmSetwiseRerank([query("t", ids(3))], { client, c: 3, k: 3 });
  // Heapify asks {d0, d1, d2}: unparsed, the parent d0 stays on top. Extracting d0 moves d2
  // to the root and asks {d2, d1}: unparsed, the parent d2 stays (not the earlier d1).
  assert.deepEqual(r.docIds, ["d000", "d002", "d001"]);
  assert.deepEqual(r.counts, { comparisons: 2, unparsed: 2, failed: 0 });
});

Deno.test("setwise rerank cuts passages by tokens when asked", async () => {
  const prompts: string[] = [];
  await using server = startOpenAiServer({
    chat: (req) => (prompts.push(req.messages.at(-1)!.content), { content: "A" }),
  });
  const client = new LlmClient({ baseUrl: server.url, model: "ranker" });
  const candidates = [
    { docId: "x", text: "Hello, my dog is cute and fluffy today." },
    { docId: "y", text: "Short one." },
  ];
  await llmSetwiseRerank([{ topicId: "t", query: "dogs", candidates }], {
    client,
    c: 2,
    k: 1,
    passageTokens: 4,
  });
  // Llama-3.1 tokens "Hello" "," " my" " dog": four; the short passage stays whole.
  assert.match(prompts[0], /^Passage A: Hello, my dog$/m);
  assert.match(prompts[0], /^Passage B: Short one\.$/m);
  await assert.rejects(
    llmSetwiseRerank([{ topicId: "t", query: "dogs", candidates }], { client, passageTokens: 0 }),
    /passageTokens must be a positive integer/,
  );
});
