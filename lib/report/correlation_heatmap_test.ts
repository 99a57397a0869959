import assert from "node:assert/strict";
import { correlationHeatmap } from "./correlation_heatmap.ts";

Deno.test("correlationHeatmap fills a symmetric matrix with a diverging [-1, 1] scale", () => {
  const spec = correlationHeatmap(
    [{ a: "x", b: "y", value: 0.5 }, { a: "y", b: "z", value: -0.25 }],
    { title: "Kendall tau", valueTitle: "tau", labels: { x: "X" } },
  );
  const values = (spec.data as { values: { a: string; b: string; value: number }[] }).values;
  assert.deepEqual(values, [
    { a: "X", b: "X", value: 1 },
    { a: "X", b: "y", value: 0.5 },
    { a: "y", b: "X", value: 0.5 },
    { a: "y", b: "y", value: 1 },
    { a: "y", b: "z", value: -0.25 },
    { a: "z", b: "y", value: -0.25 },
    { a: "z", b: "z", value: 1 },
  ]);
  const layers = spec.layer as { encoding: Record<string, Record<string, unknown>> }[];
  assert.deepEqual(layers[0].encoding.color.scale, {
    domain: [-1, 1],
    scheme: "redblue",
    domainMid: 0,
  });
  assert.deepEqual(layers[0].encoding.color.legend, { title: "tau" });
  assert.deepEqual(layers[1].encoding.text, {
    field: "value",
    type: "quantitative",
    format: ".2f",
  });
  assert.deepEqual((spec.encoding as { x: { sort: string[] } }).x.sort, ["X", "y", "z"]);
});

Deno.test("correlationHeatmap rectangular layout keeps only given pairs", () => {
  const spec = correlationHeatmap(
    [{ a: "ctx", b: "report", value: 0.7 }],
    { title: "t", symmetric: false, format: ".3f" },
  );
  assert.deepEqual((spec.data as { values: unknown[] }).values, [
    { a: "ctx", b: "report", value: 0.7 },
  ]);
});

Deno.test("correlationHeatmap rejects out-of-range and conflicting values", () => {
  assert.throws(() => correlationHeatmap([{ a: "x", b: "y", value: -2 }], { title: "t" }), {
    message: /\(x, y\) has value -2; correlations lie in \[-1, 1\]/,
  });
  assert.throws(
    () =>
      correlationHeatmap([{ a: "x", b: "y", value: 0.1 }, { a: "y", b: "x", value: 0.2 }], {
        title: "t",
      }),
    { message: /\(y, x\) is given as 0.1 and 0.2/ },
  );
});

Deno.test("correlationHeatmap (not symmetric): rows and columns in one order, self-cells on the diagonal", () => {
  // Win rates of a over b for three runs; the pairs list direct first as a row and last as a column.
  const pairs = [
    { a: "direct", b: "rag", value: -1 },
    { a: "direct", b: "oracle", value: -1 },
    { a: "oracle", b: "rag", value: 0.5 },
    { a: "oracle", b: "direct", value: 1 },
    { a: "rag", b: "oracle", value: -0.5 },
    { a: "rag", b: "direct", value: 1 },
  ];
  const spec = correlationHeatmap(pairs, {
    title: "t",
    symmetric: false,
    order: ["rag", "oracle", "direct"],
  });
  const enc = (spec as unknown as { encoding: Record<string, { sort: string[] }> }).encoding;
  assert.deepEqual(enc.x.sort, ["rag", "oracle", "direct"]);
  assert.deepEqual(enc.y.sort, ["rag", "oracle", "direct"]);
  // Without `order`: first appearance, the same on both axes.
  const plain = correlationHeatmap(pairs, { title: "t", symmetric: false });
  const e2 = (plain as unknown as { encoding: Record<string, { sort: string[] }> }).encoding;
  assert.deepEqual(e2.x.sort, ["direct", "oracle", "rag"]);
  assert.deepEqual(e2.y.sort, e2.x.sort);
});
