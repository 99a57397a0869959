/**
 * The workspace says how each number was made: run parameters and sources,
 * the context run and condition of each generation run, what each rated item is
 * and by which judge, the judge and tau of the selection's qrels, and the
 * tokenizer of the token counts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCruxExperiment } from "../../lib/experiment/mod.ts";
import { loadExperimentConfig } from "../../lib/experiment/mod.ts";
import { openWorkspace } from "../../lib/store/mod.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "provenance tables after the sample chain",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const config = await loadExperimentConfig(
      join(root, "notebooks", "configs", "sample-offline.json"),
      { root },
    );
    await runCruxExperiment({ ...config, workspace: dir }, { until: "judge" });
    const ws = await openWorkspace(dir, { readOnly: true });
    try {
      const runs = await ws.query<
        { run: string; kind: string; sources: string[]; params: Record<string, unknown> }
      >(
        "SELECT run, kind, sources, params FROM run_info ORDER BY run",
      );
      const byRun = new Map(runs.map((r) => [r.run, r]));
      assert.equal(byRun.get("hybrid")?.kind, "fusion");
      assert.deepEqual(byRun.get("hybrid")?.sources, ["bm25", "dense-tfidf"]);
      assert.equal(byRun.get("bm25-mmr0.5")?.kind, "mmr");
      assert.deepEqual(byRun.get("bm25-mmr0.5")?.sources, ["bm25"]);
      assert.equal(byRun.get("bm25-k1.2-b0.75")?.params.k1, 1.2);
      const gens = await ws.query<
        { run: string; condition: string; contextRun: string | null; backend: string }
      >(
        "SELECT run, condition, context_run, backend FROM generation_info ORDER BY run",
      );
      const gen = new Map(gens.map((g) => [g.run, g]));
      assert.deepEqual(gen.get("rag-hybrid"), {
        run: "rag-hybrid",
        condition: "rag",
        contextRun: "hybrid",
        backend: "extractive",
      });
      assert.equal(gen.get("direct")?.contextRun, null);
      assert.equal(gen.get("oracle-result")?.backend, "human");
      const qrels = await ws.query<
        { name: string; origin: string; judge: string; tau: number; redundancy: string }
      >(
        "SELECT name, origin, judge, tau, redundancy FROM qrels_info ORDER BY name",
      );
      assert.deepEqual(qrels, [
        { name: "crux_div", origin: "selection", judge: "human", tau: 3, redundancy: "all" },
        { name: "crux_pr", origin: "selection", judge: "human", tau: 3, redundancy: "all" },
      ]);
      const rated = await ws.query<
        { itemKind: string; judge: string; run: string | null; n: number }
      >(
        "SELECT item_kind, judge, run, count(*)::INTEGER AS n FROM rated_items WHERE judge = 'lexical' AND run = 'rag-hybrid' GROUP BY ALL",
      );
      assert.deepEqual(rated, [{ itemKind: "report", judge: "lexical", run: "rag-hybrid", n: 10 }]);
      const tokenizer = await ws.query<{ value: string }>(
        "SELECT value FROM meta WHERE key = 'tokenizer.passages'",
      );
      assert.deepEqual(tokenizer, [{ value: "llama3.1" }]);
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
