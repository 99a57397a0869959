import assert from "node:assert/strict";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { buildRequests } from "./build_requests.ts";
import { tinyWorkspace } from "./_tiny_workspace.ts";

Deno.test("buildRequests: <r> request stored, existing requests kept unless overwrite; offline frame", async () => {
  await using ws = await tinyWorkspace();
  await ws.exec("UPDATE topics SET request = 'Keep me.' WHERE topic_id = 'tiny-2'");
  await using server = startOpenAiServer({
    chat: () => ({ content: "Request:\n<r>  Tell me about\nthe bridge. </r>" }),
  });
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    cache: await CallCache.open(ws.connection),
  });
  const s = await buildRequests(ws, { client });
  assert.equal(s.written, 1);
  assert.equal(s.skipped, 1);
  const rows = await ws.query<{ request: string }>("SELECT request FROM topics ORDER BY topic_id");
  assert.deepEqual(rows.map((r) => r.request), ["Tell me about the bridge.", "Keep me."]);
  const offline = await buildRequests(ws, { overwrite: true, topics: ["tiny-2"] });
  assert.equal(offline.written, 1);
  const t2 = await ws.query<{ request: string }>(
    "SELECT request FROM topics WHERE topic_id = 'tiny-2'",
  );
  assert.match(t2[0].request, /^Write a report on the following subject, .*: Orchard frost$/);
});
