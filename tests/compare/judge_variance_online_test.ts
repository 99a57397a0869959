/**
 * The judge-variance stage against the loopback model server: k sampled judges
 * (temperature > 0, seed = sample) rate every report, each under its own judge
 * name, and the stored spread and ranking survival equal a recomputation.
 */
import assert from "node:assert/strict";
import { methodStages, parseMethodSection } from "@lib/methods/mod.ts";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { judgeVariance } from "@lib/metrics/mod.ts";
import { runStages } from "@lib/pipeline/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { promptKind } from "../support/fake_model.ts";
import { tinyWorkspaceDir } from "../pipeline/_tiny.ts";
import { testConfig } from "../pipeline/_config.ts";
import { requestHash } from "../pipeline/_faults.ts";

Deno.test({
  name: "judge:variance samples the report judge k times under distinct names",
  sanitizeResources: false,
  fn: async () => {
    const dir = await tinyWorkspaceDir();
    await runCruxExperiment(testConfig({ workspace: dir, construct: { questions: 4 } }), {
      until: "measure",
    });
    const seen: { seed?: number; temperature?: number }[] = [];
    await using server = startOpenAiServer({
      chat: (req, { key }) => {
        if (promptKind(req) !== "rating") return { content: "?" };
        seen.push({ seed: req.seed, temperature: req.temperature });
        return { content: String((requestHash(key) + 7 * (req.seed ?? 0)) % 6) };
      },
    });
    const ws = await openWorkspace(dir);
    try {
      const before = await ws.query(
        "SELECT * FROM measures WHERE method = 'crux' AND judge = 'lexical' ORDER BY ALL",
      );
      const section = parseMethodSection(
        "compare",
        { variance: { samples: 3, temperature: 0.8 } },
        "x.json",
      );
      const ctx = {
        backend: "openai" as const,
        llm: { maxRetries: 1 },
        env: { OPENAI_BASE_URL: server.url, CRUX_JUDGE_MODEL: "judge-model" },
        answerRuns: [],
        answerStages: [],
        dataStages: [],
        judgeStages: [],
        outDir: dir,
        configFile: "x.json",
      };
      const specs = await methodStages("compare", section, ctx);
      const events: string[] = [];
      await runStages(ws, specs, {
        order: ["judge", "measure"],
        onEvent: (e) => events.push(`${e.id}: ${e.message}`),
      });
      assert.ok(seen.length > 0);
      assert.deepEqual([...new Set(seen.map((s) => s.seed))].sort(), [1, 2, 3]);
      assert.ok(seen.every((s) => s.temperature === 0.8));
      const samples = await ws.query<{ judge: string; run: string; value: number }>(
        `SELECT judge, run, value FROM measures WHERE method = 'crux' AND measure = 'Cov'
         AND source = 'report' AND topic_id = 'all' AND judge LIKE 'lexical#s%'
         ORDER BY judge, run`,
      );
      assert.deepEqual([...new Set(samples.map((s) => s.judge))], [
        "lexical#s1",
        "lexical#s2",
        "lexical#s3",
      ]);
      const v = judgeVariance(
        samples.map((s) => ({ sample: s.judge, run: s.run, value: s.value })),
      );
      const stored = await ws.query<{ run: string; measure: string; value: number }>(
        "SELECT run, measure, value FROM measures WHERE method = 'judge-variance'",
      );
      const get = (run: string, m: string) =>
        stored.find((r) => r.run === run && r.measure === m)!.value;
      for (const r of v.runs) {
        assert.ok(Math.abs(get(r.run, "Cov_sd") - r.sd) < 1e-12, r.run);
        assert.equal(get(r.run, "Cov_min"), r.min);
        assert.equal(get(r.run, "Cov_max"), r.max);
      }
      assert.ok(v.runs.some((r) => r.sd > 0), "the samples differ");
      assert.equal(get("", "Cov_ranking_agreement"), v.rankingAgreement);
      // Den is sampled too.
      assert.ok(stored.some((x) => x.measure === "Den_sd"));
      // The base judging's rows are untouched (the samples store under their own names).
      assert.ok(before.length > 0);
      assert.deepEqual(
        await ws.query(
          "SELECT * FROM measures WHERE method = 'crux' AND judge = 'lexical' ORDER BY ALL",
        ),
        before,
      );
      assert.match(
        events.findLast((e) => e.startsWith("judge:variance"))!,
        /judge:variance: 3 samples of "lexical": Cov largest spread/,
      );
      // New settings re-sample: the old sample ratings are cleared, not reused.
      const hotter = parseMethodSection(
        "compare",
        { variance: { samples: 3, temperature: 0.5 } },
        "x.json",
      );
      const again = await runStages(ws, await methodStages("compare", hotter, ctx), {
        order: ["judge", "measure"],
      });
      assert.ok(again.ran.includes("judge:variance"));
      assert.ok(seen.some((s) => s.temperature === 0.5), "re-sampled at the new temperature");
      const labels = await ws.query<{ source: string }>(
        "SELECT DISTINCT source FROM measures WHERE method = 'judge-variance'",
      );
      assert.deepEqual(labels, [{ source: "k=3,temperature=0.5" }]);
    } finally {
      ws.close();
    }
  },
});
