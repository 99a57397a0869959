// `crux run` says each wait before a retry when it decides it (with the endpoint,
// its length, the time it ends and the server's capped Retry-After), and a
// running stage says something at least every few seconds, also while all its
// calls wait.
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import type { Io } from "@lib/cli/command.ts";
import { runCommand } from "@lib/cli/commands/run.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply } from "../support/fake_model.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";

Deno.test("crux run announces each capped Retry-After wait within a second and keeps talking while it waits", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "crux-waits-" });
  const keys = new Map<string, number>();
  const refused: number[] = []; // when the server sent each 429
  await using server = startOpenAiServer({
    chat: (req, { key, count }) => {
      if (!keys.has(key)) keys.set(key, keys.size);
      // One call in 20, on its first attempt: 429 with a Retry-After of 27h46m39s.
      if (count === 1 && keys.get(key)! % 20 === 3) {
        refused.push(performance.now());
        return { status: 429, retryAfter: 99999, message: "slow down" };
      }
      return { content: fakeReply(req) };
    },
  });
  const workspace = await tinyWorkspaceDir();
  const config = join(tmp, "config.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      name: "waits",
      workspace,
      backend: "openai",
      llm: {
        baseUrl: server.url,
        maxRetries: 2,
        maxRetryWaitMs: 8000,
        concurrency: 4,
        roles: { generator: { model: "gen-model" }, judge: { model: "judge-model" } },
      },
      construct: { questions: 4 },
      generate: ["rag", "direct", "oracle"],
      measures: ["Cov@oracle", "Cov@10"],
    }),
  );
  const lines: { at: number; text: string }[] = [];
  const io: Io = {
    out: () => {},
    err: (text) => {
      const at = performance.now();
      for (const t of text.split("\n")) if (t) lines.push({ at, text: t });
    },
    isTty: false,
  };
  try {
    const code = await main(["run", "--config", config, "--until", "measure"], io, [runCommand]);
    assert.equal(code, 0, lines.map((l) => l.text).join("\n"));
    assert.ok(refused.length >= 1, "some calls were refused");
    const url = `${server.url}/chat/completions`.replace(/[.]/g, "\\.");
    const wait = new RegExp(
      `^run: \\[\\S+\\] .*waiting 8\\.0s \\(until \\d\\d:\\d\\d:\\d\\d UTC\\) before attempt 2 at ${url}; ` +
        `Retry-After 27h46m capped \\(HTTP 429 from ${url}: slow down\\)$`,
    );
    const waits = lines.filter((l) => wait.test(l.text));
    assert.equal(waits.length, refused.length, lines.map((l) => l.text).join("\n"));
    // Each 429 is announced within a second of its arrival.
    for (const t of refused) {
      assert.ok(
        waits.some((w) => w.at >= t && w.at - t < 1000),
        `no wait line within 1 s of the 429 at ${t.toFixed(0)} ms`,
      );
    }
    // While calls wait (8 s), the stage still says it runs, and until when the retry waits.
    assert.ok(
      lines.some((l) =>
        /^run: \[\S+\] still running after \d+s: .* calls.*; a retry waits until \d\d:\d\d:\d\d UTC$/
          .test(l.text)
      ),
      lines.map((l) => l.text).join("\n"),
    );
    // While a call waits 8 s, the run is never silent for more than a few seconds
    // (3 s, the 1 s check, and slack for a busy machine).
    for (const w of waits) {
      const during = lines.filter((l) => l.at >= w.at && l.at <= w.at + 8000);
      const times = [...during.map((l) => l.at), Math.min(w.at + 8000, lines.at(-1)!.at)];
      for (let i = 1; i < times.length; i++) {
        assert.ok(
          times[i] - times[i - 1] < 4500,
          lines.map((l) => `${l.at.toFixed(0)} ${l.text}`).join("\n"),
        );
      }
    }
  } finally {
    await Deno.remove(workspace, { recursive: true });
    await Deno.remove(tmp, { recursive: true });
  }
});
