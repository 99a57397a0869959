import assert from "node:assert/strict";
import { methodStages } from "@lib/methods/mod.ts";
import { join } from "node:path";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { formatJsonl } from "@lib/formats/mod.ts";
import { openWorkspace, readMeasures, readSubqPairwiseVerdicts } from "@lib/store/mod.ts";
import { winRates, workspaceCoverageLines } from "@lib/subq/mod.ts";
import { subqAnalyses } from "@lib/methods/subq/analyses.ts";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { subqCommand } from "@lib/cli/commands/subq.ts";
import { testConfig } from "../pipeline/_config.ts";
import { runStages } from "@lib/pipeline/run_stages.ts";
import { SUBQ_STAGES } from "@lib/methods/subq/stages.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const ctx = (answerRuns: string[]) => ({
  backend: "offline" as const,
  answerRuns,
  answerStages: [],
  dataStages: [],
  judgeStages: [],
  outDir: "unused",
  configFile: join(ROOT, "x.json"),
});

Deno.test({
  name:
    "subq stages on the sample: typed sub-questions, variants as generation runs, measures equal to crux subq score, fresh re-run",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-subq-stages-" });
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
        const runs = ["rag-bm25", "direct", "oracle-context"];
        const raw = { n: 12, preferences: "datasets/sample/preferences.jsonl" };
        const specs = await methodStages(
          "subq",
          SUBQ_STAGES.parse(raw, join(ROOT, "x.json")),
          ctx(runs),
        );
        const order = { order: ["judge", "measure"] };
        const first = await runStages(ws, specs, order);
        assert.deepEqual(first.ran, [
          "judge:subq-decompose",
          "judge:subq-classify",
          "judge:subq-variants",
          "judge:subq-coverage",
          "judge:subq-pairwise",
          "judge:subq-preferences",
          "measure:subq",
        ]);
        const q = await ws.query<{ n: number; typed: number; topics: number }>(
          `SELECT count(*)::INTEGER AS n, count(type)::INTEGER AS typed,
             count(DISTINCT topic_id)::INTEGER AS topics FROM subq_questions WHERE source = 'decompose'`,
        );
        assert.deepEqual(q, [{ n: 120, typed: 120, topics: 10 }]);
        const info = await ws.query<{ run: string; condition: string; contextRun: string }>(
          `SELECT run, condition, context_run AS "contextRun" FROM generation_info
           WHERE run LIKE 'subq-core-%' ORDER BY run`,
        );
        assert.deepEqual(info.map((r) => [r.run, r.condition, r.contextRun]), [
          ["subq-core-def", "subq-core-def", "subq-core-def"],
          ["subq-core-e2e", "subq-core-e2e", "subq-core-e2e"],
          ["subq-core-query", "subq-core-query", "subq-core-query"],
          ["subq-core-retrieval", "subq-core-retrieval", "subq-core-retrieval"],
        ]);
        // The measure table agrees with `crux subq score` on the same judgments (one evaluator).
        const judge = "lexical coverage (offline)";
        const all = [
          ...runs,
          "subq-core-def",
          "subq-core-e2e",
          "subq-core-query",
          "subq-core-retrieval",
        ];
        const { lines, missing } = await workspaceCoverageLines(ws, { runs: all, judge });
        assert.equal(missing, 0);
        const file = join(dir, "cov.jsonl");
        await Deno.writeTextFile(
          file,
          formatJsonl(lines.map((l) => ({
            question_id: l.questionId,
            sub_question: l.subQuestion,
            type: l.type,
            system: l.system,
            answered: l.answered,
            retrieved: l.retrieved,
            chunk_share: l.chunkShare,
            position: l.position,
          }))),
        );
        const io = memoryIo();
        assert.equal(
          await main(["subq", "score", "--judgments", file, "--format", "json"], io, [subqCommand]),
          0,
        );
        const cli = JSON.parse(io.stdout()).systems;
        const m = await ws.query<{ run: string; measure: string; value: number; topics: number }>(
          `SELECT run, measure, value, topics FROM measures WHERE method = 'subq' AND topic_id = 'all'
           AND judge = $1 AND source = 'decompose'`,
          [judge],
        );
        const stored = (run: string, measure: string) =>
          m.find((r) => r.run === run && r.measure === measure)?.value;
        for (const run of all) {
          const s = cli[run];
          for (const t of ["core", "background", "follow-up", "all"]) {
            assert.equal(
              stored(run, `subq_answered_${t}`),
              s.answered[t] ?? undefined,
              `${run} ${t}`,
            );
            assert.equal(
              stored(run, `subq_retrieved_${t}`),
              s.retrieved?.[t] ?? undefined,
              `${run} r ${t}`,
            );
          }
          for (const k of ["m3", "m4", "m5", "m6"]) {
            assert.equal(stored(run, `subq_${k}`), s.metrics[k] ?? undefined);
          }
          assert.ok(Math.abs(stored(run, "subq_rating")! - s.rating) < 1e-12);
        }
        // Direct prompting (extractive: empty text) answers nothing and has no chunks.
        assert.equal(stored("direct", "subq_answered_all"), 0);
        assert.equal(stored("direct", "subq_retrieved_core"), undefined);
        assert.ok(m.filter((r) => r.run === "rag-bm25").every((r) => r.topics === 10));
        // The pairwise judge compared every pair of rag-bm25 and the four variants on every topic.
        const pw = await ws.query<{ n: number }>(
          `SELECT count(*)::INTEGER AS n FROM subq_pairwise`,
        );
        assert.equal(pw[0].n, 10 * 10);
        // The win-rate table shows the rows measure:subq stored, equal to the win
        // rates of the stored verdicts (what the table computed before they were stored).
        const verdicts = await readSubqPairwiseVerdicts(ws);
        const names = [...new Set(verdicts.flatMap((v) => [v.runA, v.runB]))].sort();
        const wins = (await subqAnalyses(ws, { source: "decompose" }))
          .find((a) => a.name === "subq_win_rates")!;
        const expected = winRates(verdicts, names);
        assert.deepEqual(
          wins.table!.rows.map((r) => r.values),
          names.map((run) =>
            Object.fromEntries(names.map((o, i) => [
              `c${i}`,
              expected.find((c) => c.run === run && c.opponent === o)!.winRate,
            ]))
          ),
        );
        // Every ordered pair of the five runs (rag-bm25 and the four variants), win and
        // net win rate.
        const winRows = await readMeasures(ws, { method: "subq", source: "pairwise" });
        assert.equal(winRows.length, 5 * 4 * 2);
        assert.ok(winRows.every((r) => r.topics === 10 && r.topicSet === "scored(n=10)"));
        assert.ok(wins.cells!.every((c) => c.key || c.reason));
        const pref = await ws.query<{ n: number; ties: number }>(
          `SELECT count(*)::INTEGER AS n, count(*) FILTER (human = 'tie')::INTEGER AS ties FROM subq_preferences`,
        );
        assert.deepEqual(pref, [{ n: 30, ties: 7 }]);
        // The set is named by its file's name wherever the file lies: no path is stored.
        const sets = await ws.query<{ source: string }>(
          `SELECT DISTINCT source FROM subq_preferences`,
        );
        assert.deepEqual(sets, [{ source: "preferences.jsonl" }]);
        const prefSources = await readMeasures(ws, {
          method: "subq",
          sourcePrefix: "preferences:",
        });
        assert.deepEqual([...new Set(prefSources.map((r) => r.source))], [
          "preferences:preferences.jsonl",
        ]);
        // Unchanged: nothing runs. A new threshold re-runs the coverage judgments and what reads them only.
        assert.deepEqual((await runStages(ws, specs, order)).ran, []);
        const changed = await methodStages(
          "subq",
          SUBQ_STAGES.parse({ ...raw, threshold: 0.75 }, join(ROOT, "x.json")),
          ctx(runs),
        );
        assert.deepEqual((await runStages(ws, changed, order)).ran, [
          "judge:subq-coverage",
          "judge:subq-pairwise",
          "judge:subq-preferences",
          "measure:subq",
        ]);
      } finally {
        ws.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("SUBQ_STAGES.parse names the file and field of a bad section", () => {
  assert.throws(
    () => SUBQ_STAGES.parse({ n: 0 }, "e.json"),
    /e\.json: subq\.n: expected an integer >= 1/,
  );
  assert.throws(() => SUBQ_STAGES.parse({ variants: ["x"] }, "e.json"), /subq\.variants/);
  assert.throws(() => SUBQ_STAGES.parse({ weights: { core: 1 } }, "e.json"), /subq\.weights/);
  assert.throws(() => SUBQ_STAGES.parse({ colour: 1 }, "e.json"), /subq\.colour: unknown field/);
  assert.deepEqual(SUBQ_STAGES.parse({ examples: "none", source: "crux" }, "e.json"), {
    examples: "none",
    source: "crux",
  });
});
