/**
 * Endpoints that misbehave: a judge run with no successful call exits non-zero;
 * redirects never carry the key to another origin; impossible token counts are
 * recorded as unknown.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { judgeCommand } from "../../lib/cli/commands/judge.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { ratingRule, writePairs } from "./_fixtures.ts";

async function judge(dir: string, baseUrl: string, extra: string[] = []) {
  const io = memoryIo();
  const code = await main(
    [
      "judge",
      "answerability",
      "--input",
      await writePairs(dir, 10),
      "--out",
      join(dir, "out.jsonl"),
      "--model",
      "m",
      "--base-url",
      baseUrl,
      "--workspace",
      join(dir, "ws"),
      "--max-retries",
      "0",
      ...extra,
    ],
    io,
    [judgeCommand],
  );
  return { code, out: io.stdout(), err: io.stderr() };
}

Deno.test("judge answerability exits 1 when no pair got a rating (401, closed port, bad URL)", async () => {
  await using server = startOpenAiServer({ chat: () => ({ status: 401, message: "bad key" }) });
  const unauthorized = await judge(await Deno.makeTempDir(), server.url);
  assert.equal(unauthorized.code, 1);
  assert.match(
    unauthorized.err,
    /0 of 10 pairs got a rating \(0\.0%, below the minimum of one\); first error: .*HTTP 401/,
  );
  // The output is written anyway, with every error.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const closed = await judge(await Deno.makeTempDir(), `http://127.0.0.1:${port}/v1`);
  assert.equal(closed.code, 1);
  assert.match(closed.err, /0 of 10 pairs got a rating/);
  const bad = await judge(await Deno.makeTempDir(), "not a url");
  assert.equal(bad.code, 1);
});

Deno.test("judge answerability --min-ok-share makes a partial run fail", async () => {
  await using server = startOpenAiServer({
    chat: (req) => (ratingRule(req).content === "0" ? { status: 500 } : ratingRule(req)),
  });
  const dir = await Deno.makeTempDir();
  const partial = await judge(dir, server.url);
  assert.equal(partial.code, 0, partial.err);
  const ok = Number(/: (\d+) ok/.exec(partial.out)![1]);
  assert.ok(ok > 0 && ok < 10, partial.out);
  const strict = await judge(dir, server.url, ["--min-ok-share", "0.95"]);
  assert.equal(strict.code, 1);
  assert.match(
    strict.err,
    new RegExp(`${ok} of 10 pairs got a rating .*below the --min-ok-share 0\\.95`),
  );
  assert.equal((await judge(dir, server.url, ["--min-ok-share", "2"])).code, 2);
});

Deno.test("redirects: followed within the endpoint's origin, refused to another origin", async () => {
  await using target = startOpenAiServer({ chat: ratingRule });
  const hops: string[] = [];
  const front = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    hops.push(url.pathname);
    if (url.pathname.startsWith("/old/")) {
      return new Response(null, { status: 307, headers: { location: url.pathname.slice(4) } });
    }
    if (url.pathname.startsWith("/elsewhere/")) {
      return new Response(null, {
        status: 307,
        headers: { location: `${target.url}${url.pathname.slice("/elsewhere/v1".length)}` },
      });
    }
    // Same origin, after the redirect: answer like a model.
    return Response.json({
      choices: [{ message: { role: "assistant", content: "4" } }],
      usage: { prompt_tokens: -3, completion_tokens: Infinity },
    });
  });
  try {
    const frontUrl = `http://127.0.0.1:${front.addr.port}`;
    const dir = await Deno.makeTempDir();
    const same = await judge(dir, `${frontUrl}/old/v1`);
    assert.equal(same.code, 0, same.err);
    assert.ok(hops.includes("/old/v1/chat/completions") && hops.includes("/v1/chat/completions"));
    // The server's impossible token counts are stored as unknown, not as numbers.
    const db = await DuckDBInstance.create(join(dir, "ws", "workspace.duckdb"));
    const con = await db.connect();
    const rows = (await con.runAndReadAll("SELECT usage::VARCHAR FROM llm_calls")).getRows();
    con.closeSync();
    db.closeSync();
    assert.equal(rows.length, 10);
    for (const [u] of rows) {
      assert.deepEqual(JSON.parse(String(u)), { promptTokens: null, completionTokens: null });
    }
    const other = await judge(await Deno.makeTempDir(), `${frontUrl}/elsewhere/v1`);
    assert.equal(other.code, 1);
    assert.match(
      other.err,
      /Refusing to follow a redirect \(HTTP 307\) from http:\/\/127\.0\.0\.1:\d+ to another origin/,
    );
    assert.equal(target.requests, 0, "no request reached the other origin");
  } finally {
    await front.shutdown();
  }
});
