import assert from "node:assert/strict";
import { topicChart } from "./topic_chart.ts";

const DATA = [
  { topicId: "t2", run: "rag", value: 0.5 },
  { topicId: "t1", run: "rag", value: 0.8 },
  { topicId: "t2", run: "direct", value: 0.2 },
];

Deno.test("topicChart layers lines, points and a human overlay with its own data", () => {
  const spec = topicChart(DATA, {
    title: "Coverage per topic",
    human: [{ topicId: "t3", value: 0.6, extra: "dropped" }],
  });
  const enc = spec.encoding as Record<string, Record<string, unknown>>;
  assert.deepEqual(enc.x.sort, ["t1", "t2", "t3"]); // natural order, not order of appearance
  assert.deepEqual(enc.y.scale, { domain: [0, 1] });
  const layers = spec.layer as Record<string, unknown>[];
  assert.equal(layers.length, 3);
  assert.deepEqual(layers[2].data, { values: [{ value: 0.6, topicId: "t3" }] });
  const shape = (layers[2].encoding as { shape: Record<string, unknown> }).shape;
  assert.equal(shape.datum, "human");
  assert.deepEqual(shape.scale, { range: ["diamond"] });
  assert.equal(spec.width, 240);
});

Deno.test("topicChart without lines or overlay has only the point layer", () => {
  const spec = topicChart(DATA, { title: "t", lines: false, yDomain: [0, 5], humanLabel: "x" });
  const layers = spec.layer as { mark: { type: string } }[];
  assert.deepEqual(layers.map((l) => l.mark.type), ["point"]);
  assert.deepEqual((spec.encoding as { y: { scale: unknown } }).y.scale, { domain: [0, 5] });
});

Deno.test("topicChart rejects a malformed human label", () => {
  assert.throws(() => topicChart(DATA, { title: "t", human: [{ topicId: "t1" }] }), {
    message: /Cannot build topic chart overlay: data row 1 field "value" is undefined/,
  });
});
