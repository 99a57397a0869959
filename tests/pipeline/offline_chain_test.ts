import assert from "node:assert/strict";
import { join } from "node:path";
import type { RetrievalConfig } from "@lib/construct/mod.ts";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { testConfig } from "./_config.ts";
import { rrf } from "@lib/retrieval/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";

Deno.test("offline chain on the tiny dataset: every stage, budgets respected, re-run does nothing", async () => {
  const dir = await tinyWorkspaceDir();
  try {
    const config = testConfig({ workspace: dir, construct: { questions: 4 } });
    const r = await runCruxExperiment(config, { until: "measure" });
    assert.deepEqual(r.stages.ran.slice(0, 4), ["dataset", "construct", "select", "retrieve:bm25"]);
    {
      const ws = await openWorkspace(dir);
      const count = async (sql: string) =>
        (await ws.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${sql}`))[0].n;
      assert.equal(await count("passages"), 4); // one chunk per short document
      assert.equal(await count("topics WHERE request IS NOT NULL"), 2);
      assert.equal(await count("questions WHERE kind = 'subquestion'"), 8); // 4 summary sentences per topic
      // (2 passages + summary) x 4 questions, 2 topics, by the lexical judge
      assert.equal(await count("ratings WHERE item_id NOT LIKE '%:report:%'"), (4 + 2) * 4);
      assert.deepEqual(
        await ws.query(
          "SELECT run, count(*)::INTEGER AS n, any_value(backend) AS backend FROM generations WHERE run <> 'oracle-result' GROUP BY run ORDER BY run",
        ),
        [
          { run: "direct", n: 2, backend: "extractive" },
          { run: "oracle-context", n: 2, backend: "extractive" },
          { run: "rag-bm25", n: 2, backend: "extractive" },
        ],
      );
      ws.close();
    }
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
      const oracle = await ws.measures({
        run: "oracle-context",
        topicId: "all",
        source: "context",
      });
      assert.equal(oracle.find((m) => m.measure === "Cov")!.value, 1);
      assert.ok(Math.abs(oracle.find((m) => m.measure === "Den")!.value - 1) < 1e-12);
      // Retrieval measures of the BM25 run are stored.
      assert.ok(
        (await ws.measures({ run: "bm25", topicId: "all" })).some((m) =>
          m.measure === "Cov@oracle" && m.method === "crux" && m.judge !== ""
        ),
      );
    } finally {
      ws.close();
    }
    const again = await runCruxExperiment(config, { until: "measure" });
    assert.deepEqual(again.stages.ran, [], "an unchanged re-run does nothing");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "offline chain with dense, fused and imported runs: each is stored, generated and measured",
  sanitizeResources: false,
  fn: async () => {
    const dir = await tinyWorkspaceDir();
    try {
      const base = { workspace: dir, construct: { questions: 4 } };
      await runCruxExperiment(testConfig(base), { until: "construct" });
      // An outside run over the workspace's passages: every passage of each topic, reversed.
      let ws = await openWorkspace(dir);
      const passages = (await ws.passages()).sort((a, b) => a.passageId < b.passageId ? 1 : -1);
      ws.close();
      const path = join(dir, "outside.trec");
      await Deno.writeTextFile(
        path,
        passages.map((p, i) => `${p.topicId} Q0 ${p.passageId} ${i + 1} ${10 - i} theirs\n`)
          .join(""),
      );
      const retrieve: RetrievalConfig[] = [
        { name: "bm25", k: 10 },
        { name: "dense-tfidf", kind: "dense", embedder: "tfidf", k: 10 },
        { name: "hybrid", kind: "fusion", runs: ["bm25", "dense-tfidf"], method: "rrf", k: 60 },
        { name: "outside", kind: "file", path },
      ];
      const config = testConfig({ ...base, retrieve });
      const r = await runCruxExperiment(config, { until: "measure" });
      assert.deepEqual(r.stages.ran.filter((id) => id.startsWith("retrieve:")), [
        "retrieve:bm25",
        "retrieve:dense-tfidf",
        "retrieve:hybrid",
        "retrieve:outside",
      ]);
      ws = await openWorkspace(dir);
      assert.deepEqual(
        await ws.query(
          "SELECT run, count(*)::INTEGER AS n FROM generations WHERE run <> 'oracle-result' GROUP BY run ORDER BY run",
        ),
        ["direct", "oracle-context", "rag-bm25", "rag-dense-tfidf", "rag-hybrid", "rag-outside"]
          .map((run) => ({ run, n: 2 })),
      );
      try {
        const bm25 = await ws.runRows("bm25");
        const dense = await ws.runRows("dense-tfidf");
        // The stored hybrid run is RRF (k = 60) of the two stored runs.
        const hybrid = await ws.runRows("hybrid");
        const expected = rrf([bm25, dense], { k: 60, run: "hybrid" });
        assert.deepEqual(
          hybrid.map((h) => [h.topicId, h.docId, h.rank]).sort(),
          expected.map((h) => [h.topicId, h.docId, h.rank]).sort(),
        );
        assert.equal((await ws.runRows("outside")).length, passages.length);
        for (const run of ["dense-tfidf", "hybrid", "outside"]) {
          const m = await ws.measures({ run });
          assert.ok(m.some((x) => x.measure === "Cov@oracle" && x.topicId === "all"), run);
        }
      } finally {
        ws.close();
      }
      const again = await runCruxExperiment(config, { until: "measure" });
      assert.deepEqual(again.stages.ran, [], "an unchanged re-run does nothing");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
