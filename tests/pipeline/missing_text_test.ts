import assert from "node:assert/strict";
import { runCruxExperiment } from "@lib/analysis/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { testConfig } from "./_config.ts";

Deno.test("a context passage without text: report density is left out for its topic and said, coverage stays", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-missing-" });
  try {
    const config = testConfig({
      workspace: dir,
      dataset: { source: "sample", dir: "datasets/sample" },
      retrieve: [{ name: "bm25", k: 100 }],
      generate: ["rag"],
    });
    await runCruxExperiment(config, { until: "generate" });
    let ws = await openWorkspace(dir);
    const [{ topicId, pid }] = await ws.query<{ topicId: string; pid: string }>(
      `SELECT topic_id AS "topicId", context_ids[1] AS pid FROM generations
       WHERE run = 'rag-bm25' ORDER BY topic_id LIMIT 1`,
    );
    await ws.exec("DELETE FROM passages WHERE passage_id = $1", [pid]);
    ws.close();
    const notes: string[] = [];
    await runCruxExperiment(config, {
      until: "judge",
      onEvent: (e) => notes.push(e.message),
    });
    assert.ok(
      notes.some((m) => m.includes(`density left out`) && m.includes(`passage "${pid}"`)),
      notes.join("\n"),
    );
    ws = await openWorkspace(dir);
    try {
      const rows = await ws.query<{ measure: string }>(
        "SELECT measure FROM metrics WHERE run = 'rag-bm25' AND topic_id = $1 ORDER BY measure",
        [topicId],
      );
      // Coverage needs only ratings; density of the context (and of the report, when the
      // passage is also one of P*) would need the missing text.
      const measures = rows.map((r) => r.measure);
      assert.ok(
        measures.includes("Cov_context") && measures.includes("Cov_report"),
        measures.join(),
      );
      assert.ok(!measures.includes("Den_context"), measures.join());
    } finally {
      ws.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
