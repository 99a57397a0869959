import assert from "node:assert/strict";
import { runExperiment } from "@lib/construct/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";

Deno.test("offline chain on the tiny dataset: every stage, budgets respected, re-run does nothing", async () => {
  const dir = await tinyWorkspaceDir();
  try {
    const events: string[] = [];
    const r = await runExperiment({ workspace: dir, construct: { questions: 4 } }, {
      onEvent: (e) => events.push(`${e.stage}: ${e.message}`),
    });
    const step = (name: string) => r.construct.find((s) => s.step === name)!;
    assert.equal(step("passages").written, 4); // one chunk per short document
    assert.equal(step("requests").written, 2);
    assert.equal(step("questions").written, 8); // 4 summary sentences per topic
    assert.equal(step("ratings").written, (4 + 2) * 4); // (2 passages + summary) x 4 questions, 2 topics
    assert.deepEqual(r.retrieved, ["bm25"]);
    assert.deepEqual(r.generated.map((g) => [g.run, g.written, g.backend]), [
      ["rag-bm25", 2, "extractive"],
      ["direct", 2, "extractive"],
      ["oracle-context", 2, "extractive"],
    ]);
    const ws = await openWorkspace(dir);
    try {
      const gens = await ws.generations();
      assert.equal(
        gens.filter((g) => g.run === "oracle-result" && g.backend === "human").length,
        2,
      );
      const budget = await ws.query<{ topicId: string; t: number; k: number }>(
        `SELECT q.topic_id, CAST(sum(p.tokens) AS INTEGER) AS t, CAST(count(*) AS INTEGER) AS k FROM qrels q
         JOIN passages p ON p.passage_id = q.doc_id WHERE q.name = 'crux_pr' AND q.grade = 3 GROUP BY q.topic_id`,
      );
      for (const g of gens.filter((g) => g.run !== "oracle-result")) {
        const b = budget.find((x) => x.topicId === g.topicId)!;
        assert.ok(g.tokens! <= b.t, `${g.run}/${g.topicId}: ${g.tokens} tokens > budget ${b.t}`);
        if (g.run !== "direct") assert.equal(g.contextIds!.length, b.k);
        else assert.equal(g.contextIds, undefined); // no context: stored as NULL
      }
      // The oracle context covers every answerable question with density 1 by construction.
      const oracle = (await ws.metrics({ run: "oracle-context" })).filter((m) =>
        m.topicId === "all"
      );
      assert.equal(oracle.find((m) => m.measure === "Cov_context")!.value, 1);
      assert.ok(Math.abs(oracle.find((m) => m.measure === "Den_context")!.value - 1) < 1e-12);
      // Retrieval measures of the BM25 run are stored.
      assert.ok(
        (await ws.metrics({ run: "bm25" })).some((m) =>
          m.measure === "Cov@oracle" && m.topicId === "all"
        ),
      );
    } finally {
      ws.close();
    }
    assert.ok(r.reports.some((x) => x.run === "oracle-result"));

    const again = await runExperiment({ workspace: dir, construct: { questions: 4 } });
    assert.deepEqual(again.construct.map((s) => s.written).slice(0, 4), [0, 0, 0, 0]);
    assert.deepEqual(again.retrieved, []);
    assert.deepEqual(again.generated.map((g) => g.written), [0, 0, 0]);
    assert.deepEqual(again.reports, r.reports);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
