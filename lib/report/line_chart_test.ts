import assert from "node:assert/strict";
import { lineChart } from "./line_chart.ts";

Deno.test("lineChart builds line and point layers over a quantitative x", () => {
  const data = [
    { run: "bm25", cutoff: 5, value: 0.4 },
    { run: "bm25", cutoff: 10, value: 0.6 },
    { run: "dense", cutoff: 5, value: 0.5 },
  ];
  const spec = lineChart(data, { title: "Coverage vs cutoff", xTitle: "k", xScale: "log" });
  const enc = spec.encoding as Record<string, Record<string, unknown>>;
  assert.deepEqual(enc.x, {
    field: "cutoff",
    type: "quantitative",
    title: "k",
    scale: { type: "log", zero: false },
  });
  assert.deepEqual(enc.color.sort, ["bm25", "dense"]);
  assert.deepEqual((spec.layer as { mark: { type: string } }[]).map((l) => l.mark.type), [
    "line",
    "point",
  ]);
  assert.deepEqual((spec.data as { values: unknown[] }).values, data.map((d) => ({ ...d })));
});

Deno.test("lineChart rejects a non-numeric cutoff", () => {
  assert.throws(() => lineChart([{ run: "a", cutoff: "10", value: 1 }], { title: "t" }), {
    message: /data row 1 field "cutoff" is "10"; expected a finite number/,
  });
});
