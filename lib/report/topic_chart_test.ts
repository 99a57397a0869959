import assert from "node:assert/strict";
import { topicChart } from "./topic_chart.ts";

const DATA = [
  { topicId: "t2", run: "rag", value: 0.5 },
  { topicId: "t1", run: "rag", value: 0.8 },
  { topicId: "t2", run: "direct", value: 0.2 },
];

Deno.test("topicChart draws lines, dodged points and the human labels as black diamonds", () => {
  const spec = topicChart(DATA, {
    title: "Coverage per topic",
    human: [{ topicId: "t3", value: 0.6, extra: "dropped" }],
  });
  const enc = spec.encoding as Record<string, Record<string, unknown>>;
  assert.deepEqual(enc.x.sort, ["t1", "t2", "t3"]); // natural order, not order of appearance
  assert.deepEqual(enc.y.scale, { domain: [0, 1] });
  const layers = spec.layer as { encoding: Record<string, Record<string, unknown>> }[];
  assert.equal(layers.length, 2);
  const values = (spec.data as { values: Record<string, unknown>[] }).values;
  assert.deepEqual(values[3], { value: 0.6, topicId: "t3", run: "human", _panel: "human" });
  const { color, shape, xOffset } = layers[1].encoding;
  assert.deepEqual(color.scale, {
    domain: ["rag", "direct", "human"],
    range: ["#0072B2", "#E69F00", "#000000"],
  });
  assert.deepEqual((shape.scale as { range: string[] }).range[2], "diamond");
  assert.deepEqual((color.legend as { values: string[] }).values, ["rag", "direct", "human"]);
  assert.deepEqual(xOffset, { field: "run", type: "nominal", sort: ["rag", "direct", "human"] });
  assert.equal(spec.width, 160);
});

Deno.test("topicChart: more than eight series become small multiples; ties are named", () => {
  const data = Array.from(
    { length: 9 },
    (_, s) =>
      ["test-10", "test-2", "test-1"].map((topicId) => ({
        topicId,
        run: `r${s}`,
        value: s === 1 ? 0.55 : (s + 1) / 11,
      })),
  ).flat();
  data.push(...data.filter((d) => d.run === "r5").map((d) => ({ ...d, run: "r9" })));
  const spec = topicChart(data, { title: "t" });
  type Panel = {
    title: { text: string };
    width: number;
    encoding: { x: { sort: string[]; axis: { labels?: boolean } }; y: { title: unknown } };
  };
  const panels = spec.concat as Panel[];
  assert.equal(panels.length, 10);
  assert.equal(spec.columns, 3);
  assert.deepEqual(panels.map((p) => p.title.text).slice(0, 2), ["r0", "r1"]);
  assert.deepEqual(panels[0].encoding.x.sort, ["test-1", "test-2", "test-10"]);
  assert.ok(panels[0].width <= 139, `panel width ${panels[0].width}`);
  // 10 panels in rows of 3: the x labels show under panels 8, 9, 10 (nothing below
  // them) and under no other, so no axis hangs under the two empty slots.
  assert.deepEqual(
    panels.map((p, i) => p.encoding.x.axis.labels === false ? -1 : i + 1).filter((i) => i > 0),
    [8, 9, 10],
  );
  // The y axis is titled in the first column only.
  assert.deepEqual(
    panels.map((p, i) => p.encoding.y.title === null ? -1 : i + 1).filter((i) => i > 0),
    [1, 4, 7, 10],
  );
  assert.deepEqual((spec.title as { subtitle: string[] }).subtitle, [
    "equal on every topic: r5 = r9",
  ]);
});

Deno.test("topicChart without lines or overlay has only the point layer", () => {
  const spec = topicChart(DATA, { title: "t", lines: false, yDomain: [0, 5], humanLabel: "x" });
  const layers = spec.layer as { mark: { type: string } }[];
  assert.deepEqual(layers.map((l) => l.mark.type), ["point"]);
  assert.equal(spec.width, 160);
  assert.deepEqual((spec.encoding as { y: { scale: unknown } }).y.scale, { domain: [0, 5] });
});

Deno.test("topicChart rejects a malformed human label", () => {
  assert.throws(() => topicChart(DATA, { title: "t", human: [{ topicId: "t1" }] }), {
    message: /Cannot build topic chart overlay: data row 1 field "value" is undefined/,
  });
});

Deno.test("topicChart: 50 topics of 4 series become small multiples within 7 inches", () => {
  const data = ["a", "b", "c", "d"].flatMap((run) =>
    Array.from({ length: 50 }, (_, t) => ({ topicId: `test-${t}`, run, value: t / 50 }))
  );
  const spec = topicChart(data, { title: "t" });
  const inner = (spec.concat as { width: number; encoding: { x: { sort: string[] } } }[])[0];
  assert.ok(3 * inner.width + 50 <= 504, `3 panels of ${inner.width} pt fit 7 in`);
  assert.deepEqual(inner.encoding.x.sort.slice(0, 3), ["test-0", "test-1", "test-2"]);
  assert.equal(inner.encoding.x.sort[10], "test-10");
});

Deno.test("topicChart: a series zero on every topic is not drawn and named", () => {
  const data = ["t1", "t2"].flatMap((topicId) => [
    { topicId, run: "bm25", value: 0.4 },
    { topicId, run: "empty context", value: 0 },
  ]);
  const spec = topicChart(data, { title: "t" });
  assert.deepEqual(
    (spec.data as { values: { run: string }[] }).values.map((v) => v.run),
    ["bm25", "bm25"],
  );
  assert.deepEqual((spec.title as { subtitle: string[] }).subtitle, [
    "not drawn (zero everywhere): empty context",
  ]);
});

Deno.test("topicChart: a prefix shared by every topic id moves to the axis title", () => {
  const data = ["multi_news-test-100", "multi_news-test-100-1", "multi_news-test-107"]
    .map((topicId) => ({ topicId, run: "bm25", value: 0.5 }));
  const x = (topicChart(data, { title: "t" }).encoding as { x: Record<string, unknown> }).x;
  assert.equal(x.title, "topic (multi_news-test-…)");
  assert.equal((x.axis as { labelExpr: string }).labelExpr, "slice(datum.label, 16)");
  // "sample-" (7 characters) moves too.
  const s = ["sample-01", "sample-02"].map((topicId) => ({ topicId, run: "bm25", value: 0.5 }));
  const xs = (topicChart(s, { title: "t" }).encoding as { x: Record<string, unknown> }).x;
  assert.equal(xs.title, "topic (sample-…)");
});
