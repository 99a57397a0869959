import assert from "node:assert/strict";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { llmEntailer } from "./llm_entailer.ts";
import { testClient } from "./_test_client.ts";

Deno.test("llmEntailer: labels with reason and snippet; unparseable and failed answers have no label", async () => {
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      if (prompt.includes("Key point: A")) {
        return { content: '{"label": "YES", "reason": "stated", "snippet": "a"}' };
      }
      if (prompt.includes("Key point: B")) return { content: '{"label": "maybe"}' };
      if (prompt.includes("Statement: S")) {
        return { content: '{"label": "no", "reason": "contradicted"}' };
      }
      return { status: 500 };
    },
  });
  const { client, ws } = await testClient(server.url);
  const r = await llmEntailer(client, { reasks: 1 }).judge([
    { id: "1", keypoint: "A", response: "resp" },
    { id: "2", keypoint: "B", response: "resp" },
    { id: "3", keypoint: "C", response: "resp" },
  ]);
  assert.deepEqual(r.map((x) => [x.id, x.label, x.status, x.reason, x.snippet]), [
    ["1", "yes", "ok", "stated", "a"],
    ["2", null, "unparsed", 'label "maybe" is not one of yes | no | neutral', ""],
    ["3", null, "failed", r[2].reason, ""],
  ]);
  assert.match(r[2].reason, /HTTP 500/);
  const [s] = await llmEntailer(client, { task: "support" }).judge([
    { id: "s", keypoint: "S", response: "docs" },
  ]);
  assert.deepEqual([s.label, s.reason, s.snippet], ["no", "contradicted", ""]);
  assert.match(server.log.at(-1)!.key, /Documents \(separated by lines of =====\):\ndocs/);
  ws.close();
});
