import assert from "node:assert/strict";
import type { MetricRow } from "@lib/types/records.ts";
import { barChart } from "./bar_chart.ts";

const DATA = [
  { run: "bm25", measure: "Cov@10", value: 0.61, topicId: "all" },
  { run: "dense", measure: "Cov@10", value: 0.66, topicId: "all" },
  { run: "bm25", measure: "alpha_nDCG@10", value: 0.52, topicId: "all" },
  { run: "dense", measure: "alpha_nDCG@10", value: 0.58, topicId: "all" },
];

Deno.test("barChart builds a grouped bar spec with inline data, order and title block", () => {
  const spec = barChart(DATA, {
    title: "Coverage by pipeline",
    subtitle: "top-10 contexts",
    note: "offline backends: lexical judge",
    yDomain: [0, 1],
  });
  assert.equal(spec.$schema, "https://vega.github.io/schema/vega-lite/v6.json");
  assert.deepEqual(spec.title, {
    text: "Coverage by pipeline",
    subtitle: ["top-10 contexts", "offline backends: lexical judge"],
  });
  assert.deepEqual(spec.data, {
    values: DATA.map(({ run, measure, value }) => ({ value, measure, run })),
  });
  const enc = spec.encoding as Record<string, Record<string, unknown>>;
  assert.deepEqual(enc.x.sort, ["Cov@10", "alpha_nDCG@10"]);
  assert.equal(enc.x.field, "measure");
  assert.deepEqual(enc.y.scale, { domain: [0, 1] });
  const layer = spec.layer as {
    mark: unknown;
    encoding: Record<string, Record<string, unknown>>;
  }[];
  assert.deepEqual(layer[0].mark, { type: "bar" });
  assert.deepEqual(layer[0].encoding.xOffset, {
    field: "run",
    type: "nominal",
    sort: ["bm25", "dense"],
  });
  assert.equal(layer[0].encoding.color.field, "run");
  assert.equal((spec.config as { font: string }).font, "DejaVu Sans");
});

Deno.test("barChart takes other fields and adds value labels on request", () => {
  const spec = barChart(
    [{ pipeline: "rag", metric: "Cov", score: 0.4 }],
    { title: "t", x: "metric", color: "pipeline", y: "score", showValues: true, format: ".2f" },
  );
  const layer = spec.layer as { mark: { type: string }; encoding?: { text: unknown } }[];
  assert.equal(layer.length, 2);
  assert.equal(layer[1].mark.type, "text");
  assert.deepEqual(layer[1].encoding?.text, {
    field: "score",
    type: "quantitative",
    format: ".2f",
  });
  assert.deepEqual(spec.title, { text: "t" });
});

Deno.test("barChart rejects missing or non-numeric values and an empty title", () => {
  assert.throws(() => barChart([{ run: "a", measure: "m", value: "x" }], { title: "t" }), {
    name: "TypeError",
    message: 'Cannot build bar chart: data row 1 field "value" is "x"; expected a finite number',
  });
  assert.throws(() => barChart([{ measure: "m", value: 1 }], { title: "t" }), {
    message: /data row 1 field "run" is undefined; expected a string/,
  });
  assert.throws(() => barChart(DATA, { title: " " }), { message: /give a non-empty title/ });
});

Deno.test("barChart accepts typed MetricRow records", () => {
  const rows: MetricRow[] = [{ run: "a", topicId: "all", measure: "Cov@10", value: 0.25 }];
  const spec = barChart(rows, { title: "t" });
  assert.deepEqual(spec.data, { values: [{ value: 0.25, measure: "Cov@10", run: "a" }] });
});

Deno.test("barChart leaves all-zero series out of the legend, draws references, wraps", () => {
  const data = Array.from({ length: 40 }, (_, t) =>
    ["a", "b", "zero"].map((run) => ({
      topic: `t${t}`,
      run,
      value: run === "zero" ? 0 : t,
    }))).flat();
  const spec = barChart(data, {
    title: "t",
    x: "topic",
    reference: [{ topic: "t1", value: 5 }],
  });
  const sub = (spec.title as { subtitle: string[] }).subtitle;
  assert.deepEqual(sub, ["not drawn (zero everywhere): zero"]);
  const rowSpecs = spec.vconcat as {
    width: number;
    transform: unknown[];
    layer: { mark: { type: string }; encoding: Record<string, Record<string, unknown>> }[];
  }[];
  assert.deepEqual(rowSpecs.map((r) => r.transform), [
    [{ filter: "datum._panel === 0" }],
    [{ filter: "datum._panel === 1" }],
  ]);
  const inner = rowSpecs[0];
  const legend = inner.layer[0].encoding.color.legend as { values: string[] };
  assert.deepEqual(legend.values, ["a", "b"]);
  assert.deepEqual(inner.layer.map((l) => l.mark.type), ["bar", "tick"]);
  // 40 groups of 16 pt do not fit 7 in: rows of 20
  assert.equal(inner.width, 320);
  const rows = (spec.data as { values: { _panel: number }[] }).values.map((v) => v._panel);
  assert.deepEqual([...new Set(rows)], [0, 1]);
});
