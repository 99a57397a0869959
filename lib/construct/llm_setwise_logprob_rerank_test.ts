import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { setwiseRerank } from "@lib/retrieval/mod.ts";
import { type ServerChatRequest, startOpenAiServer } from "../../tests/support/openai_server.ts";
import type { ListwiseQuery } from "./llm_listwise_rerank.ts";
import { llmSetwiseLogprobRerank } from "./llm_setwise_logprob_rerank.ts";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${String(i).padStart(3, "0")}`);
const query = (topicId: string, docs: string[]): ListwiseQuery => ({
  topicId,
  query: `query ${topicId}`,
  candidates: docs.map((docId) => ({ docId, text: `doc ${docId} text` })),
});

/** The set's passages (label, doc id), in prompt order. */
const setOf = (req: ServerChatRequest) =>
  [...req.messages.at(-1)!.content.matchAll(/^Passage ([A-Z]): doc (\S+) text$/gm)].map((
    m,
  ) => [m[1], m[2]] as const);

/** The reference comparisons: the same heap sort with the scripted order as chooser. */
async function reference(docs: string[], pos: Map<string, number>, c: number, k: number) {
  return await setwiseRerank(
    docs,
    (set) =>
      Promise.resolve({ best: set.indexOf([...set].sort((a, b) => pos.get(a)! - pos.get(b)!)[0]) }),
    { c, k },
  );
}

Deno.test("setwise by label logprobs recovers the scripted top k; comparisons counted; a re-run calls nothing", async () => {
  const docs = ids(30);
  // Scripted relevance: odd-numbered documents from the bottom up, then the even ones.
  const target = [...docs.filter((_, i) => i % 2).reverse(), ...docs.filter((_, i) => !(i % 2))];
  const pos = new Map(target.map((d, i) => [d, i]));
  await using server = startOpenAiServer({
    chat: (req) => {
      const set = setOf(req);
      // The generated label is always A (a sampled token): only the logprobs carry the scripted choice.
      const alts = set.map(([l, d]) => ({ token: ` ${l}`, logprob: -pos.get(d)! / 10 }))
        .sort((a, b) => b.logprob - a.logprob);
      return {
        content: "Passage A",
        logprobs: [
          { token: "Passage", logprob: -0.01, top: [{ token: "Passage", logprob: -0.01 }] },
          { token: " A", logprob: alts.find((a) => a.token === " A")!.logprob, top: alts },
        ],
      };
    },
  });
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    const cache = await CallCache.open(connection);
    const client = new LlmClient({ baseUrl: server.url, model: "ranker", cache });
    for (const c of [3, 4]) {
      server.reset();
      const [r] = await llmSetwiseLogprobRerank([query(`t${c}`, docs)], { client, c, k: 10 });
      assert.deepEqual(r.docIds.slice(0, 10), target.slice(0, 10), `c = ${c}`);
      const top = new Set(target.slice(0, 10));
      assert.deepEqual(r.docIds.slice(10), docs.filter((d) => !top.has(d)));
      const ref = await reference(docs, pos, c, 10);
      assert.deepEqual(r.counts, {
        comparisons: ref.counts.comparisons,
        unparsed: 0,
        failed: 0,
        byLogprobs: ref.counts.comparisons,
        fallback: 0,
        noLabel: 0,
      });
      assert.equal(server.requests, ref.counts.comparisons);
      assert.deepEqual([r.fallback, r.note], [false, ""]);
      server.reset();
      const [again] = await llmSetwiseLogprobRerank([query(`t${c}`, docs)], { client, c, k: 10 });
      assert.deepEqual([server.requests, again.docIds], [0, r.docIds]);
    }
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});

Deno.test("setwise by label logprobs without logprobs: the generated label decides, flagged; malformed answers counted", async () => {
  const docs = ids(12);
  const target = [...docs].reverse();
  const pos = new Map(target.map((d, i) => [d, i]));
  await using server = startOpenAiServer({
    logprobs: false,
    chat: (req) => {
      const set = setOf(req);
      const best = set.reduce((a, b) => (pos.get(b[1])! < pos.get(a[1])! ? b : a));
      return { content: `[${best[0]}]` };
    },
  });
  const client = new LlmClient({ baseUrl: server.url, model: "ranker" });
  const [r] = await llmSetwiseLogprobRerank([query("t", docs)], { client, c: 3, k: 4 });
  assert.deepEqual(r.docIds.slice(0, 4), target.slice(0, 4));
  const ref = await reference(docs, pos, 3, 4);
  assert.equal(r.counts.comparisons, ref.counts.comparisons);
  assert.equal(r.counts.fallback, ref.counts.comparisons);
  assert.equal(r.fallback, true);
  assert.match(r.note, new RegExp(`generated label in ${ref.counts.comparisons} of`));

  await using prose = startOpenAiServer({ chat: () => ({ content: "Neither is relevant." }) });
  const other = new LlmClient({ baseUrl: prose.url, model: "ranker" });
  const [u] = await llmSetwiseLogprobRerank([query("t", ids(3))], { client: other, c: 3, k: 3 });
  // Heapify asks once, extraction once more: both name no label, so each set's parent
  // stays: d0 on top, then d2 (moved to the root) over d1.
  assert.deepEqual(u.docIds, ["d000", "d002", "d001"]);
  assert.deepEqual(u.counts, {
    comparisons: 2,
    unparsed: 2,
    failed: 0,
    byLogprobs: 0,
    fallback: 0,
    noLabel: 2,
  });
});
