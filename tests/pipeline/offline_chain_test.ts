import assert from "node:assert/strict";
import { join } from "node:path";
import type { RetrievalConfig } from "@lib/construct/mod.ts";
import { runExperiment } from "@lib/pipeline/mod.ts";
import { rrf } from "@lib/retrieval/mod.ts";
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

Deno.test({
  name: "offline chain with dense, fused and imported runs: each is stored, generated and measured",
  sanitizeResources: false,
  fn: async () => {
    const dir = await tinyWorkspaceDir();
    try {
      const base = { workspace: dir, construct: { questions: 4 } };
      await runExperiment(base, { until: "construct" });
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
      const r = await runExperiment({ ...base, retrieve });
      assert.deepEqual(r.retrieved, ["bm25", "dense-tfidf", "hybrid", "outside"]);
      assert.deepEqual(r.generated.map((g) => [g.run, g.written]), [
        ["rag-bm25", 2],
        ["rag-dense-tfidf", 2],
        ["rag-hybrid", 2],
        ["rag-outside", 2],
        ["direct", 2],
        ["oracle-context", 2],
      ]);
      ws = await openWorkspace(dir);
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
          const m = await ws.metrics({ run });
          assert.ok(m.some((x) => x.measure === "Cov@oracle" && x.topicId === "all"), run);
        }
      } finally {
        ws.close();
      }
      const again = await runExperiment({ ...base, retrieve });
      assert.deepEqual(again.retrieved, []);
      assert.ok(again.generated.every((g) => g.written === 0));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
