import assert from "node:assert/strict";
import { barChart } from "./bar_chart.ts";
import { displayFigure } from "./display_figure.ts";

Deno.test("displayFigure returns SVG, the Vega-Lite spec and a text line", async () => {
  const spec = barChart([{ run: "bm25", measure: "Cov@10", value: 0.5 }], {
    title: "Coverage",
    note: "offline backends: lexical judge",
  });
  const shown = await displayFigure(spec);
  const bundle = shown[Symbol.for("Jupyter.display")]();
  assert.deepEqual(Object.keys(bundle).sort(), [
    "application/vnd.vegalite.v5+json",
    "application/vnd.vegalite.v6+json",
    "image/svg+xml",
    "text/plain",
  ]);
  assert.match(bundle["image/svg+xml"] as string, /^<svg [\s\S]*>Coverage<\/text>/);
  assert.deepEqual(bundle["application/vnd.vegalite.v5+json"], spec);
  assert.deepEqual(bundle["application/vnd.vegalite.v6+json"], spec);
  assert.notEqual(bundle["application/vnd.vegalite.v5+json"], spec, "a copy, not the input");
  assert.equal(
    bundle["text/plain"],
    "Figure: Coverage (offline backends: lexical judge) [Vega-Lite, 1 data rows]",
  );
  assert.equal(String(shown), bundle["text/plain"]);
});
