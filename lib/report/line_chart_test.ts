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
  assert.deepEqual((enc.color.scale as { domain: string[] }).domain, ["bm25", "dense"]);
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

Deno.test("lineChart uses the given palette's whole domain and lists only drawn lines", () => {
  const palette = {
    series: {
      a: { color: "#111111", shape: "circle", kind: "pipeline" as const },
      b: { color: "#222222", shape: "square", kind: "pipeline" as const },
    },
    order: ["a", "b"],
  };
  const spec = lineChart([{ run: "b", cutoff: 1, value: 0.1 }], { title: "t", palette });
  const color = (spec.encoding as { color: Record<string, unknown> }).color;
  assert.deepEqual(color.scale, { domain: ["a", "b"], range: ["#111111", "#222222"] });
  assert.deepEqual((color.legend as { values: string[] }).values, ["b"]);
});
