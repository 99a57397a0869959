import assert from "node:assert/strict";
import { barChart } from "./bar_chart.ts";
import { renderSvg } from "./render_svg.ts";

const SPEC = barChart(
  [
    { run: "bm25", measure: "Cov@10", value: 0.61 },
    { run: "dense", measure: "Cov@10", value: 0.66 },
  ],
  { title: "Coverage by pipeline", note: "offline backends: lexical judge", yTitle: "mean" },
);

Deno.test("renderSvg renders the title, note, axis and legend labels in DejaVu Sans", async () => {
  const before = structuredClone(SPEC);
  const svg = await renderSvg(SPEC);
  assert.match(svg, /^<svg [^>]*width="\d+" height="\d+"/);
  for (
    const text of [
      "Coverage by pipeline",
      "offline backends: lexical judge",
      "Cov@10",
      "bm25",
      "dense",
      "mean",
    ]
  ) {
    assert.ok(svg.includes(`>${text}</text>`), `SVG shows "${text}"`);
  }
  assert.ok(svg.includes('font-family="DejaVu Sans"'));
  assert.deepEqual(SPEC, before, "spec not mutated");
});

Deno.test("renderSvg reports warnings through the callback and fails on a broken spec", async () => {
  const warnings: string[] = [];
  await renderSvg(
    {
      ...SPEC,
      encoding: { ...(SPEC.encoding as object), size: { field: "value", type: "nominal" } },
    },
    { onWarning: (w) => warnings.push(w) },
  );
  assert.ok(warnings.some((w) => /size/i.test(w)), `got warnings: ${warnings.join(" | ")}`);
  await assert.rejects(
    renderSvg({
      $schema: SPEC.$schema,
      title: "Broken",
      mark: "bar",
      data: { values: [] },
      layer: 5,
    }),
    { message: /^Cannot (compile|render) figure "Broken": / },
  );
});
