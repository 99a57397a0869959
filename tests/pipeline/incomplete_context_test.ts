import assert from "node:assert/strict";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { openWorkspace, readContextGaps } from "@lib/store/mod.ts";
import { testConfig } from "./_config.ts";

Deno.test("a retrieved passage without text: the context is flagged per run and topic; keep by default, fill on request", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-gap-" });
  try {
    const base = {
      workspace: dir,
      dataset: { source: "sample" as const, dir: "datasets/sample" },
      retrieve: [{ name: "bm25", k: 100 }],
      generate: ["rag" as const],
    };
    await runCruxExperiment(testConfig(base), { until: "retrieve" });
    let ws = await openWorkspace(dir);
    // A passage of the top k = |P*| that is not itself in P* loses its text (as a passage of
    // another collection in a released run would).
    const [{ topicId, pid, k }] = await ws.query<{ topicId: string; pid: string; k: number }>(
      `WITH p AS (SELECT topic_id, doc_id FROM qrels WHERE name = 'crux_pr' AND grade = 3),
            k AS (SELECT topic_id, count(*)::INTEGER AS k FROM p GROUP BY topic_id),
            r AS (SELECT topic_id, doc_id, row_number() OVER (
                    PARTITION BY topic_id ORDER BY score DESC, doc_id DESC) AS rk
                  FROM runs WHERE run = 'bm25')
       SELECT r.topic_id AS "topicId", r.doc_id AS pid, k.k FROM r JOIN k USING (topic_id)
       WHERE r.rk <= k.k AND NOT EXISTS (
         SELECT 1 FROM p WHERE p.topic_id = r.topic_id AND p.doc_id = r.doc_id)
       ORDER BY r.topic_id, r.rk LIMIT 1`,
    );
    await ws.exec("DELETE FROM passages WHERE passage_id = $1", [pid]);
    ws.close();
    const notes: string[] = [];
    await runCruxExperiment(testConfig(base), {
      until: "generate",
      onEvent: (e) => notes.push(e.message),
    });
    assert.ok(
      notes.some((m) =>
        m.includes('Run "rag-bm25": 1 of') && m.includes("the shorter context kept") &&
        m.includes(`${topicId} 1/${k}`)
      ),
      notes.join("\n"),
    );
    assert.ok(notes.some((m) => /1 contexts incomplete/.test(m)), notes.join("\n"));
    ws = await openWorkspace(dir);
    let gaps = await readContextGaps(ws);
    assert.deepEqual(gaps.get("rag-bm25"), [{ topicId, k, missing: [pid], filled: [] }]);
    const [kept] = await ws.query<{ ids: string[] }>(
      "SELECT context_ids AS ids FROM generations WHERE run = 'rag-bm25' AND topic_id = $1",
      [topicId],
    );
    assert.equal(kept.ids.length, k - 1);
    assert.ok(!kept.ids.includes(pid));
    ws.close();

    // Every table that shows the run names the incomplete context and the rule followed.
    const r = await runCruxExperiment(
      testConfig({
        ...base,
        analysis: { correlation: { samples: 2, size: 5, depth: 20, seed: 1 } },
      }),
    );
    const main = r.analyses!.analyses.find((a) => a.name === "main_table")!;
    assert.ok(
      main.table!.notes!.some((n) =>
        n.includes("rag-bm25 (from bm25): 1 of") && n.includes("the shorter context kept")
      ),
      main.table!.notes!.join("\n"),
    );

    // `fill` re-generates that run: the place goes to the next readable passage of the run.
    await runCruxExperiment(testConfig({ ...base, missingText: "fill" }), { until: "generate" });
    ws = await openWorkspace(dir);
    try {
      gaps = await readContextGaps(ws);
      const [gap] = gaps.get("rag-bm25")!;
      assert.equal(gap.filled.length, 1);
      const [filled] = await ws.query<{ ids: string[] }>(
        "SELECT context_ids AS ids FROM generations WHERE run = 'rag-bm25' AND topic_id = $1",
        [topicId],
      );
      assert.equal(filled.ids.length, k);
      assert.deepEqual(filled.ids.slice(0, k - 1), kept.ids);
      assert.equal(filled.ids[k - 1], gap.filled[0]);
    } finally {
      ws.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("missingText in a config must be keep or fill", async () => {
  const { parseExperimentConfig } = await import("@lib/experiment/mod.ts");
  assert.throws(
    () => parseExperimentConfig('{"name": "x", "missingText": "skip"}', { file: "c.json" }),
    /c.json": field "missingText" must be "keep" or "fill", got "skip"/,
  );
});
