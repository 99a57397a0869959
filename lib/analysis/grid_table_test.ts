import assert from "node:assert/strict";
import type { RerankUsageRow } from "@lib/store/mod.ts";
import { gridTable } from "./grid_table.ts";

const usage = (u: Partial<RerankUsageRow> & { run: string }): RerankUsageRow => ({
  source: "bm25",
  method: "listwise",
  reranker: "rankgpt",
  model: "gpt-x",
  offline: false,
  calls: 0,
  cached: 0,
  embedded: 0,
  promptTokens: 0,
  completionTokens: 0,
  wallMs: 0,
  costUsd: null,
  counts: {},
  ...u,
});
const m = (run: string, measure: string, value: number, source = "selection") => ({
  run,
  measure,
  judge: "human",
  source,
  value,
  topics: 10,
});

Deno.test("gridTable: first stage then cells per group, cost and measures as stored, gaps named", () => {
  const a = gridTable({
    grid: {
      first: ["bm25", "dense"],
      cells: [
        { run: "bm25+rankgpt", first: "bm25", reranker: "rankgpt" },
        { run: "bm25+lexical", first: "bm25", reranker: "lexical" },
        { run: "dense+rankgpt", first: "dense", reranker: "rankgpt" },
        { run: "dense+lexical", first: "dense", reranker: "lexical" },
      ],
    },
    usage: [
      // 12 calls, 9000 + 300 tokens at 0.15 / 0.6 per million: 0.00135 + 0.00018 = 0.00153.
      usage({
        run: "bm25+rankgpt",
        calls: 12,
        cached: 2,
        promptTokens: 9000,
        completionTokens: 300,
        wallMs: 4500,
        costUsd: 0.00153,
      }),
      usage({
        run: "bm25+lexical",
        method: "lexical",
        reranker: "lexical",
        model: null,
        offline: true,
        wallMs: 20,
        costUsd: 0,
      }),
      // The endpoint reported no tokens: tokens and cost unknown.
      usage({
        run: "dense+rankgpt",
        source: "dense",
        calls: 12,
        promptTokens: null,
        completionTokens: null,
        wallMs: 3000,
      }),
    ],
    measures: [
      m("bm25", "Cov@oracle", 0.5),
      m("bm25", "alpha_nDCG@oracle", 0.6),
      m("rag-bm25", "Cov", 0.45, "report"),
      m("bm25+rankgpt", "Cov@oracle", 0.7),
      m("bm25+rankgpt", "alpha_nDCG@oracle", 0.75),
      m("bm25+lexical", "Cov@oracle", 0.55),
      m("bm25+lexical", "alpha_nDCG@oracle", 0.65),
      m("dense", "Cov@oracle", 0.52),
      m("dense", "alpha_nDCG@oracle", 0.62),
      m("dense+rankgpt", "Cov@oracle", 0.6),
      m("dense+rankgpt", "alpha_nDCG@oracle", 0.64),
    ],
  });
  const rows = a.data.rows;
  assert.deepEqual(rows.map((r) => r.run), [
    "bm25",
    "bm25+rankgpt",
    "bm25+lexical",
    "dense",
    "dense+rankgpt",
    "dense+lexical",
  ]);
  assert.deepEqual(
    rows.map((r) => [r.calls, r.tokens, r.costUsd, r.covZ, r.andcg]),
    [
      // First stages: no reranker, no cost measured: blank, never 0.
      [null, null, null, 0.5, 0.6],
      [12, 9300, 0.00153, 0.7, 0.75],
      [0, 0, 0, 0.55, 0.65],
      [null, null, null, 0.52, 0.62],
      [12, null, null, 0.6, 0.64],
      [null, null, null, null, null],
    ],
  );
  assert.equal(rows[0].covY, 0.45);
  const t = a.table!;
  assert.deepEqual(t.rows.map((r) => r.group), ["bm25", "bm25", "bm25", "dense", "dense", "dense"]);
  assert.equal(t.rows[2].values.reranker, "lexical (offline stand-in)");
  assert.equal(t.rows[1].values.time, 4.5);
  const notes = t.notes!.join("\n");
  assert.match(notes, /lexical = offline stand-in for the model rerankers/);
  assert.match(notes, /No usage record \(rerank stage not run\) for: dense\+lexical/);
  assert.match(notes, /No token counts \(the endpoint reported none\) for: dense\+rankgpt/);
  assert.match(notes, /No stored Cov@oracle for: dense\+lexical/);
  assert.match(notes, /2 of the calls were answered from the call cache/);
  assert.match(notes, /First stages have no reranker: their reranker cost cells are blank\./);
  // A cell costs money: the figure's x axis is the cost; points only where both values exist.
  const values = (a.figure!.data as { values: Record<string, unknown>[] }).values;
  assert.ok(values.every((v) => typeof v.cost === "number"));
  assert.deepEqual(
    values.filter((v) => v.measure === "Cov(Z)").map((v) => [v.run, v.cost, v.value]),
    [["bm25+rankgpt", 0.00153, 0.7], ["bm25+lexical", 0, 0.55]],
  );
});

Deno.test("gridTable: each measure cell names the stored mean it shows, or why it is blank", () => {
  const a = gridTable({
    grid: { first: ["bm25"], cells: [{ run: "bm25+lexical", first: "bm25", reranker: "lexical" }] },
    usage: [],
    measures: [
      m("bm25", "Cov@oracle", 0.5),
      m("rag-bm25", "Cov", 0.25, "report"),
      m("bm25+lexical", "alpha_nDCG@oracle", 0.75),
    ],
  });
  const at = (row: string, column: string) =>
    a.cells!.find((c) => c.row === row && c.column === column)!;
  assert.equal(a.cells!.length, 6); // 2 runs x Cov(Z), alpha-nDCG, Cov(y)
  assert.deepEqual(at("bm25", "covZ").key, {
    run: "bm25",
    source: "selection",
    judge: "human",
    measure: "Cov@oracle",
    topicId: "all",
  });
  assert.equal(at("bm25", "covY").key?.run, "rag-bm25");
  assert.equal(at("bm25", "covY").key?.measure, "Cov");
  assert.equal(at("bm25+lexical", "andcg").key?.measure, "alpha_nDCG@oracle");
  assert.equal(at("bm25", "andcg").key, undefined);
  assert.match(at("bm25", "andcg").reason!, /alpha_nDCG@oracle for bm25/);
  assert.match(at("bm25+lexical", "covY").reason!, /Cov for rag-bm25\+lexical/);
  // The cell shows the value of the row its key names.
  const row = a.table!.rows.find((r) => r.label === "bm25")!;
  assert.equal(row.values.covZ, 0.5);
  assert.equal(row.values.covY, 0.25);
});
