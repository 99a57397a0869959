import assert from "node:assert/strict";
import { scatterChart } from "./scatter_chart.ts";

const DATA = [
  { run: "bm25", contextCov: 0.5, reportCov: 0.4 },
  { run: "dense", contextCov: 0.7, reportCov: 0.55 },
];

Deno.test("scatterChart has points and labels, and no fit line through two points", () => {
  const spec = scatterChart(DATA, {
    title: "Context vs report",
    subtitle: "Kendall tau = 1.00",
    x: "contextCov",
    y: "reportCov",
    label: "run",
  });
  const layers = spec.layer as Record<string, unknown>[];
  // Any line fits two points: none is drawn, and the subtitle says why.
  assert.deepEqual(layers.map((l) => (l.mark as { type: string }).type), ["point", "text"]);
  assert.equal(
    (spec.title as { subtitle: string[] }).subtitle.join(" "),
    "Kendall tau = 1.00; no fit line: 2 points are too few to tell",
  );
  assert.deepEqual((layers[1].encoding as { text: unknown }).text, {
    field: "run",
    type: "nominal",
  });
  const enc = spec.encoding as Record<string, Record<string, unknown>>;
  assert.equal(enc.x.field, "_x");
  assert.equal(enc.y.field, "reportCov");
  const values = (spec.data as { values: Record<string, number>[] }).values;
  assert.deepEqual(
    values.map(({ _lx: _a, _ly: _b, ...v }) => v),
    DATA.map((d) => ({ ...d, _x: d.contextCov, _side: "main" })),
  );
  // Axes span the data with 8% room: x 0.5-0.7 -> [0.484, 0.716], y 0.4-0.55 -> [0.388, 0.562].
  assert.deepEqual(enc.x.scale, { domain: [0.484, 0.716], nice: false, zero: false });
  // bm25 (lower left) is labelled to its right at its height; dense (upper right corner)
  // has no room on the right, so its label goes to the left, also at its height.
  assert.ok(values[0]._lx > values[0]._x && Math.abs(values[0]._ly - 0.4) < 1e-9);
  assert.ok(values[1]._lx < values[1]._x && Math.abs(values[1]._ly - 0.55) < 1e-9);
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

Deno.test("scatterChart dodges coinciding points, names them and fits on chosen series", () => {
  const data = [
    { run: "bm25", x: 0.5, y: 0.4 },
    { run: "bm25-k1.2", x: 0.5, y: 0.4 },
    { run: "hybrid", x: 0.6, y: 0.55 },
    { run: "dense", x: 0.7, y: 0.6 },
    { run: "oracle", x: 1, y: 0.9 },
  ];
  const spec = scatterChart(data, {
    title: "t",
    subtitle: "s",
    x: "x",
    y: "y",
    color: "run",
    fitOn: ["bm25", "bm25-k1.2", "hybrid", "dense"],
    breakAxis: false,
  });
  const values = (spec.data as { values: { _x: number; x: number }[] }).values;
  // span 0.5; offsets of +-4% of it (0.01) keep the true x for the tooltip
  assert.deepEqual(values.map((v) => Number(v._x.toFixed(4))), [0.49, 0.51, 0.6, 0.7, 1]);
  assert.deepEqual(values.map((v) => v.x), [0.5, 0.5, 0.6, 0.7, 1]);
  assert.deepEqual((spec.title as { subtitle: string[] }).subtitle, [
    "s; coincide (dodged): bm25 = bm25-k1.2",
  ]);
  const layers = spec.layer as Record<string, unknown>[];
  // The regression, over the chosen series only.
  assert.deepEqual(layers[0].transform, [
    { filter: { field: "run", oneOf: ["bm25", "bm25-k1.2", "hybrid", "dense"] } },
    { regression: "y", on: "x" },
    { calculate: 'datum["x"]', as: "_x" },
  ]);
  const color = (layers[1].encoding as { color: Record<string, unknown> }).color;
  assert.deepEqual((color.scale as { domain: string[] }).domain, [
    "bm25",
    "bm25-k1.2",
    "hybrid",
    "dense",
    "oracle",
  ]);
});

Deno.test("scatterChart breaks the x axis for a reference far from the pipelines", () => {
  const data = [
    { run: "bm25", x: 0.5, y: 0.4 },
    { run: "bm25-k1.2", x: 0.5, y: 0.4 },
    { run: "hybrid", x: 0.6, y: 0.55 },
    { run: "dense", x: 0.7, y: 0.6 },
    { run: "oracle", x: 1, y: 0.9 },
  ];
  const spec = scatterChart(data, {
    title: "t",
    x: "x",
    y: "y",
    color: "run",
    fitOn: ["bm25", "bm25-k1.2", "hybrid", "dense"],
  });
  // The oracle's gap (0.3) exceeds the span of the rest (0.2): it gets a panel of its own,
  // and the tie is dodged by 4% of the main panel's span (0.2): +-0.004.
  const values = (spec.data as { values: { _x: number; _side: string }[] }).values;
  assert.deepEqual(values.map((v) => v._side), ["main", "main", "main", "main", "right"]);
  assert.deepEqual(values.map((v) => Number(v._x.toFixed(4))), [0.496, 0.504, 0.6, 0.7, 1]);
  const panels = spec.hconcat as {
    width: number;
    encoding: { x: { scale: { domain: number[] } } };
  }[];
  assert.equal(panels.length, 2);
  assert.deepEqual(panels[1].encoding.x.scale.domain, [0.9, 1.1]);
  assert.ok(panels[0].width > panels[1].width);
  assert.match(
    (spec.title as { subtitle: string[] }).subtitle.join(" "),
    /^coincide \(dodged\): bm25 = bm25-k1\.2; x axis broken: oracle \(1\.000\) in a narrow panel of its own$/,
  );
});

const marks = (spec: Record<string, unknown>) =>
  (spec.layer as Record<string, unknown>[]).map((l) => (l.mark as { type: string }).type);
const subtitleOf = (spec: Record<string, unknown>) =>
  (spec.title as { subtitle: string[] }).subtitle.join(" ");
const points = (ys: number[]) => ys.map((y, i) => ({ run: `r${i}`, x: i, y }));

Deno.test("scatterChart draws no fit line where leaving one point out flips the sign of r", () => {
  // x 1, 2, 3, 10 (mean 4), y 2, 1, 0, 10 (mean 3.25): Sxy 52, Sxx 50, Syy 62.75,
  // r = 52 / sqrt(3137.5) = 0.928; the first three alone lie on a falling line, r = -1.
  const data = [[1, 2], [2, 1], [3, 0], [10, 10]].map(([x, y], i) => ({ run: `r${i}`, x, y }));
  const spec = scatterChart(data, { title: "t", x: "x", y: "y", label: "run", breakAxis: false });
  assert.ok(!marks(spec).includes("line"));
  assert.match(
    subtitleOf(spec),
    /no fit line: Pearson r 0\.928 leans on r3: without it r = -1\.000/,
  );
});

Deno.test("scatterChart draws no fit line where leaving one point out moves |r| by more than 0.3", () => {
  // x 0..4 (mean 2), y 0, 1, 0, 1, 2 (mean 0.8): Sxy 4, Sxx 10, Syy 2.8, r = 4 / sqrt(28) = 0.756.
  // Without (4, 2): Sxy 1, Sxx 5, Syy 1, r = 1 / sqrt(5) = 0.447, |r| moves by 0.309.
  const spec = scatterChart(points([0, 1, 0, 1, 2]), { title: "t", x: "x", y: "y", label: "run" });
  assert.ok(!marks(spec).includes("line"));
  assert.match(
    subtitleOf(spec),
    /no fit line: Pearson r 0\.756 leans on r4: without it r = 0\.447/,
  );
});

Deno.test("scatterChart keeps the fit line where no single point moves |r| by more than 0.3", () => {
  // y 0, 1, 0, 1, 1.5 (mean 0.7): Sxy 3, Sxx 10, Syy 1.8, r = 3 / sqrt(18) = 0.707.
  // Without (4, 1.5) r = 1 / sqrt(5) = 0.447: it moves by 0.260, more than 0.15 (named) but
  // not more than 0.3; without (0, 0) (x 1..4, y 1, 0, 1, 1.5: Sxy 1.25, Sxx 5, Syy 1.1875)
  // r = 1.25 / sqrt(5.9375) = 0.513, a move of 0.194; the others move less. The line stays.
  const spec = scatterChart(points([0, 1, 0, 1, 1.5]), {
    title: "t",
    x: "x",
    y: "y",
    label: "run",
  });
  assert.equal(marks(spec)[0], "line");
  const subtitle = subtitleOf(spec);
  assert.match(subtitle, /Pearson r 0\.707 leans on r4: without it r = 0\.447/);
  assert.ok(!subtitle.includes("no fit line"));
});
