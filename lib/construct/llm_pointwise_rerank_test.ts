import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { llmPointwiseRerank } from "./llm_pointwise_rerank.ts";

Deno.test("pointwise rerank orders by the parsed 0-3 grade; ungraded passages go below, counted", async () => {
  // Grades by passage: a 1, b 3, c unparsed (no final line), d 3, e failed, f 2 (below depth 5: f kept last).
  const answers: Record<string, { content: string } | { status: number }> = {
    a: { content: "On topic only.\n##final score: 1" },
    b: { content: "Answers it.\n**Final Score:** 3" },
    c: { content: "I would say it is relevant." },
    d: { content: "##final score: 3" },
    e: { status: 500 },
    f: { content: "##final score: 2" },
  };
  await using server = startOpenAiServer({
    chat: (req) => answers[/Passage:\ntext of (\w)/.exec(req.messages.at(-1)!.content)![1]],
  });
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    const cache = await CallCache.open(connection);
    const client = new LlmClient({ baseUrl: server.url, model: "grader", cache, maxRetries: 0 });
    const query = {
      topicId: "t",
      query: "what happened",
      candidates: [..."abcdef"].map((id) => ({ docId: id, text: `text of ${id}` })),
    };
    const [r] = await llmPointwiseRerank([query], { client, depth: 5 });
    // b and d tie at 3 (first-stage order), then a (1); c and e have no grade; f below depth.
    assert.deepEqual(r.docIds, ["b", "d", "a", "c", "e", "f"]);
    assert.deepEqual([...r.grades], [["a", 1], ["b", 3], ["d", 3]]);
    assert.equal(r.counts.calls, 5);
    assert.equal(r.counts.unparsed, 1);
    assert.equal(r.counts.failed, 1);
    assert.match(r.counts.firstError!, /HTTP 500/);
    assert.equal(server.requests, 5);
    // A re-run asks again exactly the failed (e) and the unparsed (c) grade.
    server.reset();
    await llmPointwiseRerank([query], { client, depth: 5 });
    assert.equal(server.requests, 2);
  } finally {
    connection.closeSync();
    db.closeSync();
  }
});
