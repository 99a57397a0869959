import assert from "node:assert/strict";
import { methodStages } from "@lib/methods/mod.ts";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { runStages } from "@lib/pipeline/mod.ts";
import { SUBQ_STAGES } from "@lib/methods/subq/stages.ts";
import { clearMemo, openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { testConfig } from "../pipeline/_config.ts";

const between = (s: string, a: string, b: string) =>
  s.slice(s.indexOf(a) + a.length, s.indexOf(b, s.indexOf(a)));

Deno.test({
  name:
    "subq stages with a model endpoint: every step through the cache, a forced re-run makes zero calls",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-subq-online-" });
    await using server = startOpenAiServer({
      chat: (req) => {
        const u = req.messages.at(-1)!.content;
        if (u.startsWith("Complex question:")) {
          return {
            content:
              '["What failed?", "Who was hurt?", "What is planned next?", "What is the history?"]',
          };
        }
        if (u.includes("Which type is this sub-question?")) {
          const last = u.slice(u.lastIndexOf("Sub-question: ")); // after the few-shot examples
          const q = between(last, "Sub-question: ", "\n");
          const types: Record<string, string> = {
            "What failed?": "core",
            "Who was hurt?": "core",
            "What is planned next?": "follow-up",
            "What is the history?": "background",
          };
          return { content: types[q] ?? "?" };
        }
        if (u.includes("Does the text answer")) {
          const text = between(u, "Text:\n", "\n\nDoes the text").trim();
          const words = text.split(/\s+/);
          // Quote the text's 3rd-5th words, or a span it does not contain for "history".
          return u.includes("history")
            ? { content: '{"label": "answered", "span": "not in the text at all"}' }
            : {
              content: JSON.stringify({
                label: words.length > 5 ? "answered" : "unanswered",
                span: words.slice(2, 5).join(" "),
              }),
            };
        }
        if (u.includes("Answer 1:")) return { content: '{"better": "1"}' };
        return {
          content:
            "The bridge failed on Tuesday. Two people were hurt. Repairs are planned next year.",
        };
      },
    });
    const env = {
      OPENAI_BASE_URL: server.url,
      CRUX_JUDGE_MODEL: "judge-m",
      CRUX_GENERATOR_MODEL: "gen-m",
    };
    try {
      await runCruxExperiment(
        testConfig({
          workspace: dir,
          dataset: { source: "sample", dir: "datasets/sample" },
          retrieve: [{ name: "bm25", k: 100 }],
        }),
        { until: "generate" },
      );
      const ws = await openWorkspace(dir);
      try {
        const section = SUBQ_STAGES.parse({ n: 4, variants: ["query", "e2e"] }, "x.json");
        const specs = await methodStages("subq", section, {
          backend: "openai",
          env,
          answerRuns: ["rag-bm25"],
          answerStages: [],
          dataStages: [],
          judgeStages: [],
          outDir: dir,
          configFile: "x.json",
        });
        const order = { order: ["judge", "measure"] };
        const summaries: string[] = [];
        await runStages(ws, specs, {
          ...order,
          onEvent: (e) => e.message.includes("(") && summaries.push(`${e.id}: ${e.message}`),
        });
        const calls = server.requests;
        assert.ok(calls > 100, `${calls} calls`);
        const types = await ws.query<{ type: string; classifier: string; n: number }>(
          "SELECT type, classifier, count(*)::INTEGER AS n FROM subq_questions GROUP BY ALL ORDER BY type",
        );
        assert.deepEqual(types, [
          { type: "background", classifier: "judge-m", n: 10 },
          { type: "core", classifier: "judge-m", n: 20 },
          { type: "follow-up", classifier: "judge-m", n: 10 },
        ]);
        // Spans the judge quotes that are not in the text are flagged and get no position.
        const flagged = await ws.query<{ n: number; pos: number }>(
          `SELECT count(*)::INTEGER AS n, count(position)::INTEGER AS pos FROM subq_coverage
           WHERE sub_question = 'What is the history?' AND span_found = false`,
        );
        assert.ok(flagged[0].n > 0 && flagged[0].pos === 0, JSON.stringify(flagged));
        const located = await ws.query<{ position: number }>(
          "SELECT DISTINCT position FROM subq_coverage WHERE sub_question = 'What failed?' AND answered AND span_found",
        );
        assert.ok(located.length > 0 && located.every((r) => r.position > 0 && r.position < 100));
        // A judge that always prefers the first answer shown disagrees with itself when the
        // order is swapped: every verdict is a tie.
        const verdicts = await ws.query<{ verdict: string; n: number }>(
          "SELECT verdict, count(*)::INTEGER AS n FROM subq_pairwise GROUP BY ALL",
        );
        assert.deepEqual(verdicts, [{ verdict: "tie", n: 30 }]);
        const m = await ws.query<{ judge: string }>(
          "SELECT DISTINCT judge FROM measures WHERE method = 'subq'",
        );
        assert.deepEqual(m, [{ judge: "judge-m" }]);
        // Forget every stage: all run again, from the cache, without a single request.
        await clearMemo(ws, "stage");
        const again = await runStages(ws, specs, order);
        assert.equal(again.ran.length, specs.length);
        assert.equal(server.requests, calls, "a re-run makes zero calls");
      } finally {
        ws.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
