import assert from "node:assert/strict";
import { requestHash } from "./_faults.ts";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { testConfig } from "./_config.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply, promptKind } from "../support/fake_model.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";

Deno.test("model chain against the test server: one call per request, faults survived, a re-run asks only the unparsed again", async () => {
  const dir = await tinyWorkspaceDir();
  // Malformed answers fall on ratings of tiny-2's sub-questions only (the fake model
  // asks "What is reported about <a sentence of the summary>?"): tiny-2 waits for a
  // re-run while tiny-1 is selected, generated and judged, whatever the prompts' wording.
  const tiny = JSON.parse(
    await Deno.readTextFile(new URL("../../lib/construct/testdata/tiny.json", import.meta.url)),
  ) as { topics: { topicId: string; summary: string }[] };
  const waiting = tiny.topics.find((t) => t.topicId === "tiny-2")!.summary;
  const asksWaiting = (req: Parameters<typeof promptKind>[0]) => {
    const about = /Question: What is reported about (.*)\?\n/.exec(
      req.messages.at(-1)?.content ?? "",
    )?.[1];
    return about !== undefined && waiting.includes(about);
  };
  const malformed = new Set<string>();
  await using server = startOpenAiServer({
    chat: (req, { key, count }) => {
      const h = requestHash(key);
      if (count === 1 && h % 6 === 0) return { status: 429, retryAfter: 0.01 };
      if (count === 1 && h % 6 === 1) return { status: 500, retryAfter: 0.01 };
      if (promptKind(req) === "rating" && h % 7 === 0 && asksWaiting(req)) {
        malformed.add(key);
        return { content: "Partially answered." };
      }
      return { content: fakeReply(req) };
    },
  });
  const config = testConfig({
    workspace: dir,
    backend: "openai",
    llm: { maxRetries: 3, concurrency: 4 },
    construct: { questions: 4 },
  });
  const env = {
    OPENAI_BASE_URL: server.url,
    CRUX_GENERATOR_MODEL: "gen-model",
    CRUX_JUDGE_MODEL: "judge-model",
  };
  try {
    const r = await runCruxExperiment(config, { env, until: "measure" });
    const kinds = new Map<string, number>();
    for (const e of server.log) if (e.answered) kinds.set(e.key, (kinds.get(e.key) ?? 0) + 1);
    assert.ok([...kinds.values()].every((n) => n === 1), "no request is answered twice");
    const faults = server.log.filter((e) => e.status === 429 || e.status === 500).length;
    assert.ok(faults > 0, "some requests met a fault");
    assert.equal(server.requests, kinds.size + faults, "every fault was retried exactly once");
    assert.ok(malformed.size > 0, "some ratings were malformed");

    const ws = await openWorkspace(dir);
    try {
      const calls = await ws.query<{ n: number; failed: number }>(
        "SELECT count(*) AS n, count(*) FILTER (status = 'failed') AS failed FROM llm_calls",
      );
      assert.equal(calls[0].n, kinds.size, "one cached call per distinct request");
      assert.equal(calls[0].failed, 0);
      const passages = await ws.query<{ n: number }>("SELECT count(*) AS n FROM passages");
      assert.equal(passages[0].n, 8); // 2 <p> passages per document
      const questions = await ws.query<{ text: string }>(
        "SELECT text FROM questions ORDER BY topic_id, ordinal",
      );
      assert.equal(questions.length, 8);
      assert.ok(questions.every((q) => !/^\d+\./.test(q.text)), "numbering stripped");
      const requests = await ws.query<{ request: string }>("SELECT request FROM topics");
      assert.ok(requests.every((t) => t.request.startsWith("I would like a report about this:")));
      const unparsed = await ws.query<{ n: number }>(
        "SELECT count(*) AS n FROM ratings WHERE rating = -1",
      );
      assert.equal(unparsed[0].n, malformed.size, "each malformed answer is recorded as -1");
      const gens = await ws.query<{ run: string; backend: string }>(
        "SELECT run, backend FROM generations ORDER BY run",
      );
      assert.deepEqual(
        [...new Set(gens.map((g) => `${g.run}/${g.backend}`))],
        [
          "direct/gen-model",
          "oracle-context/gen-model",
          "oracle-result/human",
          "rag-bm25/gen-model",
        ],
      );
      const params = await ws.query<{ params: Record<string, number> }>(
        "SELECT params FROM llm_calls WHERE template LIKE 'rag_report@%' LIMIT 1",
      );
      assert.equal(params[0].params.temperature, 0.7);
      assert.equal(params[0].params.top_p, 0.95);
    } finally {
      ws.close();
    }
    assert.ok(r.stages.ran.filter((id) => id.startsWith("judge:")).length >= 3);

    // The malformed ratings leave their stages incomplete: a re-run asks exactly
    // those again (the model still answers them badly) and nothing else.
    assert.ok(r.stages.incomplete.some((i) => i.unparsed > 0));
    assert.equal(
      r.stages.incomplete.reduce((n, i) => n + i.unparsed + i.failed, 0),
      malformed.size,
    );
    server.reset();
    const again = await runCruxExperiment(config, { env, until: "measure" });
    assert.deepEqual(
      [...new Set(server.log.map((e) => e.key))].sort(),
      [...malformed].sort(),
      "a re-run sends only the unparsed calls",
    );
    assert.equal(
      server.log.filter((e) => e.answered).length,
      malformed.size,
      "each answered once (after its scripted first fault, if any)",
    );
    assert.deepEqual(
      again.stages.incomplete.map((i) => [i.id, i.unparsed]),
      r.stages.incomplete.map((i) => [i.id, i.unparsed]),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
