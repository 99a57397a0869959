import assert from "node:assert/strict";
import { metricCorrelations } from "./metric_correlations.ts";
import { tinyData } from "./testdata/tiny_data.ts";

const opts = { samples: 3, size: 2, depth: 4 };

Deno.test("metricCorrelations: the first seeded sample is the hand-drawn one", () => {
  const r = metricCorrelations(tinyData(), opts);
  // bm25 on t1 ranks [1#3, 1#2, 0#0, 0#1]. Seed 42 draws 0.6011 -> index 2, then 0.4483 -> index
  // 1 + floor(0.4483 * 3) = 2, which now holds index 0: the sample is ranks 1 and 3.
  const v = (m: string) =>
    r.data.values.find((x) => x.run === "bm25#1" && x.topicId === "t1" && x.measure === m)?.value;
  assert.equal(v("covZ"), 1); // q1 by 1#3 (4) and 0#0 (5), q2 by 1#3 (3)
  assert.equal(v("recall"), 0.5); // one of the two required passages
  assert.equal(v("precision"), 0.5);
  assert.equal(r.data.contexts, 2 * 3); // two topics x three samples of one run
});

Deno.test("metricCorrelations: the same seed reproduces the samples; pairs are valid taus", () => {
  const a = metricCorrelations(tinyData(), opts);
  const b = metricCorrelations(tinyData(), opts);
  assert.deepEqual(a.data, b.data);
  const c = metricCorrelations(tinyData(), { ...opts, seed: 7 });
  assert.notDeepEqual(c.data.values, a.data.values);
  assert.ok(a.data.pairs.length > 0);
  assert.ok(a.data.pairs.every((p) => p.value >= -1 && p.value <= 1 && p.a !== p.b));
  assert.equal(a.figure!.$schema.includes("vega-lite"), true);
  assert.match(String((a.figure!.title as { text: string }).text), /\(offline backends\)$/);
});

Deno.test("metricCorrelations: an unknown run is named in the error", () => {
  assert.throws(
    () => metricCorrelations(tinyData(), { runs: ["dense"] }),
    /Cannot sample contexts from run "dense": it is not in the workspace \(known runs: bm25\)/,
  );
});
