import assert from "node:assert/strict";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
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
      until: "measure",
      onEvent: (e) => notes.push(e.message),
    });
    assert.ok(
      notes.some((m) => m.includes(`density left out`) && m.includes(`passage "${pid}"`)),
      notes.join("\n"),
    );
    ws = await openWorkspace(dir);
    try {
      const rows = await ws.query<{ measure: string }>(
        `SELECT CASE WHEN name = 'Cov' THEN 'Cov_' ELSE 'Den_' END || source AS measure
         FROM measures WHERE run = 'rag-bm25' AND topic_id = $1 AND method = 'crux'
         ORDER BY measure`,
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

Deno.test("a context passage without text: the main table's Cov(Z) and alpha-nDCG still equal the measure table, density is left out as in the measure table, not counted as 0 tokens", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-missing-main-" });
  try {
    const config = testConfig({
      workspace: dir,
      dataset: { source: "sample", dir: "datasets/sample" },
      retrieve: [{ name: "bm25", k: 100 }],
      generate: ["rag"],
      analysis: { correlation: { samples: 2, size: 5, depth: 20, seed: 1 } },
    });
    await runCruxExperiment(config, { until: "generate" });
    let ws = await openWorkspace(dir);
    const [{ pid }] = await ws.query<{ pid: string }>(
      `SELECT context_ids[1] AS pid FROM generations WHERE run = 'rag-bm25' ORDER BY topic_id LIMIT 1`,
    );
    await ws.exec("DELETE FROM passages WHERE passage_id = $1", [pid]);
    ws.close();
    const notes: string[] = [];
    const r = await runCruxExperiment(config, { onEvent: (e) => notes.push(e.message) });
    assert.ok(
      notes.some((m) => /Den@oracle not measured for bm25/.test(m) && m.includes(pid)),
      notes.join("\n"),
    );
    const main = r.analyses!.analyses.find((a) => a.name === "main_table")!;
    const rows = main.table!.rows as { label: string; values: Record<string, unknown> }[];
    const bm25 = rows.find((x) => x.label === "bm25")!.values;
    ws = await openWorkspace(dir);
    try {
      const stored = async (measure: string) =>
        (await ws.query<{ value: number }>(
          "SELECT value FROM measures WHERE run = 'bm25' AND topic_id = 'all' AND measure = $1",
          [measure],
        ))[0]?.value;
      const cell = (suffix: string) =>
        Object.entries(bm25).find(([k]) => k.endsWith(suffix))?.[1] as number;
      assert.ok(Math.abs(cell(":covZ") - (await stored("Cov@oracle"))!) < 1e-12);
      assert.ok(Math.abs(cell(":andcg") - (await stored("alpha_nDCG@oracle"))!) < 1e-12);
      assert.equal(await stored("Den@oracle"), undefined, "no density stored for bm25");
      // As in the measure stage, the run's Den(Z) is left out rather than computed with 0 tokens.
      assert.ok(!Number.isFinite(cell(":denZ")), `Den(Z) of bm25 is ${cell(":denZ")}`);
    } finally {
      ws.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
