import assert from "node:assert/strict";
import { scatterChart } from "./scatter_chart.ts";

const DATA = [
  { run: "bm25", contextCov: 0.5, reportCov: 0.4 },
  { run: "dense", contextCov: 0.7, reportCov: 0.55 },
];

Deno.test("scatterChart has a regression layer, points and labels", () => {
  const spec = scatterChart(DATA, {
    title: "Context vs report",
    subtitle: "Kendall tau = 1.00",
    x: "contextCov",
    y: "reportCov",
    label: "run",
  });
  const layers = spec.layer as Record<string, unknown>[];
  assert.deepEqual(layers[0].transform, [{ regression: "reportCov", on: "contextCov" }]);
  assert.deepEqual(layers.map((l) => (l.mark as { type: string }).type), ["line", "point", "text"]);
  assert.deepEqual((layers[2].encoding as { text: unknown }).text, {
    field: "run",
    type: "nominal",
  });
  const enc = spec.encoding as Record<string, Record<string, unknown>>;
  assert.equal(enc.x.field, "contextCov");
  assert.equal(enc.y.field, "reportCov");
  assert.deepEqual((spec.data as { values: unknown[] }).values, DATA);
});

Deno.test("scatterChart without fit or labels colours points by a field", () => {
  const spec = scatterChart(DATA, {
    title: "t",
    x: "contextCov",
    y: "reportCov",
    fit: false,
    color: "run",
  });
  const layers = spec.layer as Record<string, unknown>[];
  assert.equal(layers.length, 1);
  assert.equal((layers[0].encoding as { color: { field: string } }).color.field, "run");
});

Deno.test("scatterChart rejects non-finite coordinates", () => {
  assert.throws(
    () =>
      scatterChart([{ contextCov: NaN, reportCov: 1 }], {
        title: "t",
        x: "contextCov",
        y: "reportCov",
      }),
    { message: /data row 1 field "contextCov" is NaN; expected a finite number/ },
  );
});
