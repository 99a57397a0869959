import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { withTokenLimit } from "../../tests/support/token_limit.ts";
import { CallCache } from "./call_cache.ts";
import { LlmClient } from "./llm_client.ts";
import { parseRating } from "./parse_rating.ts";

const ANSWERS: Record<string, string> = {
  // 6 words: cut at 5 ("Rating: 3 ... Final rating:" would hide the revision), whole at 261.
  revised: "Rating: 3 Final rating: 4 done",
  // Always longer than any limit asked: cut twice.
  endless: Array.from({ length: 400 }, () => "word").join(" ") + " Rating: 4",
  short: "4",
};

Deno.test("LlmClient re-asks a cut answer once with a larger max_tokens, then fails it with the raw text", async () => {
  const limits: [string, unknown][] = [];
  await using server = startOpenAiServer({
    chat: (req) => {
      const key = req.messages[0].content;
      limits.push([key, req.max_tokens]);
      return withTokenLimit(ANSWERS[key], req.max_tokens);
    },
  });
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  const cache = await CallCache.open(connection);
  const client = new LlmClient({
    baseUrl: server.url,
    model: "m",
    cache,
    params: { maxTokens: 5 },
  });
  const ask = (content: string) => ({ messages: [{ role: "user" as const, content }] });
  const [revised, endless, short] = await client.chatMany(
    [ask("revised"), ask("endless"), ask("short")],
    { parse: parseRating },
  );
  assert.deepEqual(revised.parsed, { ok: true, value: 4 });
  assert.equal(revised.text, ANSWERS.revised);
  assert.deepEqual(endless.parsed, {
    ok: false,
    raw: Array.from({ length: 261 }, () => "word").join(" "),
    reason: "the answer was cut at max_tokens 261, also after asking again with a larger limit",
  });
  assert.deepEqual(short.parsed, { ok: true, value: 4 });
  assert.deepEqual(limits.sort(), [
    ["endless", 261],
    ["endless", 5],
    ["revised", 261],
    ["revised", 5],
    ["short", 5],
  ]);
  // A second run reads the parsed answer from the cache; the one still unparsed is asked
  // again (a re-run retries exactly the failed and unparsed items), limit and re-ask alike.
  const again = await client.chatMany([ask("revised"), ask("endless")], { parse: parseRating });
  assert.deepEqual(again.map((r) => [r.cached, r.parsed?.ok]), [[true, true], [false, false]]);
  assert.deepEqual(limits.slice(5), [["endless", 5], ["endless", 261]]);
  // Without a parser the answer is returned as sent, cut or not.
  const [plain] = await client.chatMany([ask("endless")], {});
  assert.equal(plain.text.split(" ").length, 5);
  connection.closeSync();
  db.closeSync();
});
