import assert from "node:assert/strict";
import { join } from "node:path";
import { startOpenAiServer } from "../support/openai_server.ts";
import { itemOf, ratingOf, readJsonl, writePairs } from "./_fixtures.ts";

// The real entry point; `crux judge`, `crux llm` and `crux batch` are registered there.
const CLI = new URL("../../lib/cli/main.ts", import.meta.url).pathname;
const SECRET = "sk-test-Zq8wV3nL0pR7tY2mK5xB";

async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  const bytes = new TextEncoder().encode(needle);
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) hits.push(...await filesContaining(path, needle));
    else {
      const data = await Deno.readFile(path);
      outer: for (let i = 0; i + bytes.length <= data.length; i++) {
        for (let j = 0; j < bytes.length; j++) if (data[i + j] !== bytes[j]) continue outer;
        hits.push(path);
        break;
      }
    }
  }
  return hits;
}

Deno.test("the API key never reaches the workspace, the output, logs or error messages", async () => {
  const dir = await Deno.makeTempDir();
  // Items 0-4 answer 401/500 errors that echo the key back, as some servers do.
  await using server = startOpenAiServer({
    apiKey: SECRET,
    chat: (req) => {
      const i = itemOf(req.messages.at(-1)!.content);
      if (i < 2) return { status: 401, message: `Incorrect API key provided: ${SECRET}` };
      if (i < 5) return { status: 500, message: `upstream rejected Bearer ${SECRET}` };
      return { content: String(ratingOf(i)) };
    },
  });
  const input = await writePairs(dir, 40);
  const out = join(dir, "out.jsonl");
  const ws = join(dir, "ws");
  const run = (args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, ...args],
      env: { OPENAI_API_KEY: SECRET, CRUX_JUDGE_MODEL: "judge-m" },
      stdout: "piped",
      stderr: "piped",
    }).output();
  const judged = await run([
    "judge",
    "answerability",
    "--input",
    input,
    "--out",
    out,
    "--base-url",
    server.url,
    "--workspace",
    ws,
    "--max-retries",
    "1",
  ]);
  const stats = await run(["llm", "stats", "--workspace", ws]);
  const badUrl = await run([
    "judge",
    "answerability",
    "--input",
    input,
    "--out",
    join(dir, "x.jsonl"),
    "--base-url",
    "http://127.0.0.1:1/v1",
    "--workspace",
    join(dir, "ws2"),
    "--max-retries",
    "0",
  ]);
  const dec = new TextDecoder();
  assert.equal(judged.code, 0, dec.decode(judged.stderr));
  const rows = await readJsonl(out);
  assert.deepEqual(rows.slice(0, 6).map((r) => r.status), [
    "failed",
    "failed",
    "failed",
    "failed",
    "failed",
    "ok",
  ]);
  assert.equal(
    rows[0].error,
    `Failed after 1 attempt(s): HTTP 401 from ${server.url}/chat/completions: Incorrect API key provided: [redacted]`,
  );
  assert.match(String(rows[3].error), /Bearer \[redacted\]/);
  assert.ok(rows.slice(0, 5).every((r) => r.raw === null), "failed calls have no model output");
  for (const p of [judged, stats, badUrl]) {
    for (const stream of [p.stdout, p.stderr]) assert.ok(!dec.decode(stream).includes(SECRET));
  }
  assert.match(dec.decode(stats.stdout), /judge-m\s+answerability@2\s+40\s+35\s+0\s+5/);
  assert.deepEqual(await filesContaining(dir, SECRET), []);
  // The secret is checked for real: the server accepted it on every request.
  assert.ok(server.log.every((e) => e.status !== 401 || itemOf(e.key) < 2));
  await Deno.remove(dir, { recursive: true });
});
