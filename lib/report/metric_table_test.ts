import assert from "node:assert/strict";
import type { MetricRow } from "@lib/types/records.ts";
import { metricTable } from "./metric_table.ts";
import { tableMarkdown } from "./table_markdown.ts";

const ROWS: MetricRow[] = JSON.parse(
  await Deno.readTextFile(new URL("./testdata/metric_rows.json", import.meta.url)),
);

Deno.test("metricTable averages per-topic rows and falls back to aggregate rows", () => {
  const t = metricTable(ROWS, {
    reference: ["oracle"],
    notes: ["offline backends: lexical judge"],
  });
  assert.deepEqual(t.rows.map((r) => r.label), ["bm25", "dense", "oracle"]);
  // bm25: (0.5 + 0.7 + 0.3) / 3 = 0.5; (0.4 + 0.6 + 0.2) / 3 = 0.4
  assert.ok(Math.abs((t.rows[0].values["Cov@10"] as number) - 0.5) < 1e-12);
  assert.ok(Math.abs((t.rows[0].values["alpha_nDCG@10"] as number) - 0.4) < 1e-12);
  // dense: per-topic rows win over its "all" row (0.99): (0.7 + 0.5) / 2 = 0.6
  assert.ok(Math.abs((t.rows[1].values["alpha_nDCG@10"] as number) - 0.6) < 1e-12);
  assert.equal(t.rows[2].values["Cov@10"], 1);
  assert.equal(t.rows[2].group, "reference");
  assert.deepEqual(t.notes, [
    "offline backends: lexical judge",
    "Mean over 2 to 3 topics per cell.",
  ]);
  assert.equal(
    tableMarkdown(t),
    [
      "| Run | Cov@10 | alpha_nDCG@10 |",
      "| :-- | --: | --: |",
      "| bm25 | <u>0.500</u> | <u>0.400</u> |",
      "| dense | **0.700** | **0.600** |",
      "| oracle | 1.000 | 0.950 |",
      "",
      "Note: offline backends: lexical judge",
      "",
      "Note: Mean over 2 to 3 topics per cell.",
      "",
    ].join("\n"),
  );
});

Deno.test("metricTable selects, orders, labels and sets directions", () => {
  const t = metricTable(ROWS, {
    runs: ["dense", "bm25"],
    measures: ["alpha_nDCG@10"],
    measureLabels: { "alpha_nDCG@10": "α-nDCG@10" },
    runLabels: { dense: "Dense (E5)" },
    measureGroups: { "alpha_nDCG@10": "Diversity" },
    directions: { "alpha_nDCG@10": "lower" },
    decimals: 2,
    topicNote: false,
    caption: "Diversity",
    label: "tab:div",
  });
  assert.deepEqual(t.columns, [{
    key: "alpha_nDCG@10",
    label: "α-nDCG@10",
    group: "Diversity",
    decimals: 2,
    direction: "lower",
  }]);
  assert.deepEqual(t.rows.map((r) => r.label), ["Dense (E5)", "bm25"]);
  assert.deepEqual(t.notes, []);
  assert.equal(t.caption, "Diversity");
  assert.equal(t.label, "tab:div");
});

Deno.test("metricTable leaves a missing (run, measure) cell null and counts one topic", () => {
  const t = metricTable([
    { run: "a", topicId: "t1", measure: "P@10", value: 0.2 },
    { run: "b", topicId: "t1", measure: "R@10", value: 0.4 },
  ]);
  assert.equal(t.rows[0].values["R@10"], null);
  assert.equal(t.rows[1].values["P@10"], null);
  assert.deepEqual(t.notes, ["Mean over 1 topic."]);
});

Deno.test("metricTable rejects unknown runs, measures and reference runs", () => {
  assert.throws(() => metricTable(ROWS, { runs: ["bm26"] }), {
    name: "RangeError",
    message: 'Cannot build metric table: run "bm26" has no metric rows; known: bm25, dense, oracle',
  });
  assert.throws(() => metricTable(ROWS, { measures: ["P@5"] }), { message: /measure "P@5"/ });
  assert.throws(() => metricTable(ROWS, { reference: ["human"] }), {
    message: /reference run "human"/,
  });
});
