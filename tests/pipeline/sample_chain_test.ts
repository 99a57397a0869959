import assert from "node:assert/strict";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { testConfig } from "./_config.ts";

Deno.test("sample chain: context scores of generation agree with the evaluator's Cov@oracle / Den@oracle", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-sample-" });
  try {
    const config = testConfig({
      workspace: dir,
      dataset: { source: "sample", dir: "datasets/sample" },
      retrieve: [{ name: "bm25", k: 100 }],
    });
    const r = await runCruxExperiment(config, { until: "measure" });
    assert.deepEqual(r.stages.stopped, ["statistics", "analyze"]);
    const ws = await openWorkspace(dir);
    try {
      // Imported human ratings drive selection: no lexical rating of passages is made.
      const judges = await ws.query<{ judge: string }>(
        "SELECT DISTINCT judge FROM ratings WHERE item_id NOT LIKE '%:report%'",
      );
      assert.deepEqual(judges.map((j) => j.judge), ["human"]);
      // Every value is read from the measure table: retrieval runs by their measure
      // key, generation runs by source context (the context's Cov/Den) or report.
      const value = async (run: string, measure: string, source = "") =>
        (await ws.query<{ value: number }>(
          `SELECT value FROM measures WHERE run = $1 AND measure = $2 AND topic_id = 'all'
             AND ($3 = '' OR source = $3)`,
          [run, measure, source],
        ))[0].value;
      // rag-bm25's contexts are the top |P*| of run bm25: the two code paths must agree.
      const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);
      close(await value("rag-bm25", "Cov", "context"), await value("bm25", "Cov@oracle"));
      close(await value("rag-bm25", "Den", "context"), await value("bm25", "Den@oracle"));
      assert.equal(await value("oracle-context", "Cov", "context"), 1);
      close(await value("oracle-context", "Den", "context"), 1);
      // Extractive direct reports are empty: coverage 0, in the measure table too.
      assert.equal(await value("direct", "Cov", "report"), 0);
      const stored = await ws.query<{ value: number; method: string; source: string }>(
        "SELECT value, method, source FROM measures WHERE run = 'direct' AND measure = 'Cov' AND topic_id = 'all'",
      );
      assert.deepEqual(stored, [{ value: 0, method: "crux", source: "report" }]);
    } finally {
      ws.close();
    }
    const again = await runCruxExperiment(config, { until: "measure" });
    assert.deepEqual(again.stages.ran, [], "an unchanged re-run does nothing");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
