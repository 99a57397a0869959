import assert from "node:assert/strict";
import { formatStatisticKey, type StoredMeasure } from "@lib/store/mod.ts";
import { metricCorrelations } from "./metric_correlations.ts";
import { computeStatistics } from "./compute_statistics.ts";
import { sampledContexts } from "./sampled_contexts.ts";
import { tinyExtract } from "./testdata/tiny_data.ts";
import type { CruxData } from "./types.ts";
import type { ContextKey } from "./_scores.ts";

const opts = { samples: 2, size: 2, depth: 4, measures: ["covZ", "recall"] as ContextKey[] };
const settings = sampledContexts.settings(opts);

/** Stored values of the four sampled contexts (bm25 x t1, t2 x samples 1, 2), written by hand. */
const VALUES: [string, string, number, number][] = [
  // run, topic, Cov@2, R(rel=3)@2
  ["bm25#sample1", "t1", 1, 0.5],
  ["bm25#sample2", "t1", 0.5, 0],
  ["bm25#sample1", "t2", 0.5, 0.5],
  ["bm25#sample2", "t2", 1, 1],
];

function stored(skip?: [string, string, string]): CruxData {
  const measures: StoredMeasure[] = VALUES.flatMap(([run, topicId, cov, recall]) =>
    ([["covZ", cov], ["recall", recall]] as const).flatMap(([key, value]) => {
      const k = sampledContexts.key(key, topicId, "human", settings);
      if (skip && skip[0] === run && skip[1] === topicId && skip[2] === k.measure) return [];
      return [{
        run,
        topicId,
        measure: k.measure,
        source: k.source,
        judge: "human",
        value,
        topics: null,
      }];
    })
  );
  return { ...tinyExtract(), measures };
}

/** The data with the statistics the table asks for stored (as the statistics stage does). */
function withStatistics(data: CruxData): CruxData {
  const asked = metricCorrelations(data, opts).statistics!;
  return { ...data, statistics: computeStatistics(asked) };
}

Deno.test("metricCorrelations: the stored tau-b of the sampled contexts' stored values", () => {
  // It asks for one statistic per pair, over the contexts' values in context order.
  const asked = metricCorrelations(stored(), opts).statistics!;
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0].x, [1, 0.5, 0.5, 1]);
  assert.deepEqual(asked[0].y, [0.5, 0, 0.5, 1]);
  assert.deepEqual(asked[0].key.params, { samples: 2, contexts: 4 });
  assert.deepEqual(asked[0].key.x.map((r) => [r.run, r.measure]), [["bm25#sample*", "Cov@2"]]);
  const r = metricCorrelations(withStatistics(stored()), opts);
  assert.equal(r.data.contexts, 4);
  // Cov (1, .5, .5, 1) and Recall (.5, 0, .5, 1) in context order (t1 s1, s2, t2 s1, s2):
  // of the 6 pairs, (1,2), (2,4), (3,4) are concordant, none discordant, (1,4) and (2,3)
  // tied in Cov, (1,3) tied in Recall: tau-b = 3 / sqrt((6 - 2) * (6 - 1)) = 3 / sqrt(20).
  assert.equal(r.data.pairs.length, 1);
  assert.ok(Math.abs(r.data.pairs[0].value - 3 / Math.sqrt(20)) < 1e-12);
  assert.deepEqual(r.data.values.find((v) => v.run === "bm25#sample2" && v.topicId === "t2"), {
    run: "bm25#sample2",
    topicId: "t2",
    measure: "covZ",
    value: 1,
  });
  const cell = r.cells!.find((c) => c.row === "Cov(Z)" && c.column !== "Cov(Z)")!;
  assert.equal(cell.derived, "Kendall τ of Cov(Z) and Recall over 4 sampled contexts");
  // It names the stored statistic it shows.
  assert.equal(cell.statistic, formatStatisticKey(asked[0].key));
  // Its inputs, named as a set: the eight stored rows of the samples' two measures.
  assert.equal(cell.inputs, undefined);
  assert.deepEqual(cell.inputSet, {
    source: "sample(tau=3,n=2,k=2,depth=4,seed=42)",
    judge: "human",
    measures: ["Cov@2", "R(rel=3)@2"],
    count: 8,
  });
});

Deno.test("metricCorrelations: a missing stored row blanks its pairs with the reason, nothing is scored", () => {
  const r = metricCorrelations(withStatistics(stored(["bm25#sample2", "t1", "R(rel=3)@2"])), opts);
  assert.deepEqual(r.data.pairs, []);
  const cell = r.cells!.find((c) => c.row === "Cov(Z)" && c.column !== "Cov(Z)")!;
  assert.equal(cell.derived, undefined);
  assert.equal(
    cell.reason,
    "not stored: 1 value(s) of the sampled contexts, e.g. bm25#sample2|sample(tau=3,n=2,k=2,depth=4,seed=42)|human|R(rel=3)@2|t1 (run the measure:samples stage)",
  );
  // Without any stored row every pair is blank: the table scores no context itself.
  const none = metricCorrelations({ ...tinyExtract(), measures: [] }, opts);
  assert.deepEqual(none.data.pairs, []);
  assert.deepEqual(none.data.values, []);
  // Rows of another draw (seed) are not read for this one.
  const other = metricCorrelations(stored(), { ...opts, seed: 7 });
  assert.deepEqual(other.data.pairs, []);
});

Deno.test("metricCorrelations: an unknown run is named in the error", () => {
  assert.throws(
    () => metricCorrelations(tinyExtract(), { runs: ["dense"] }),
    /Cannot sample contexts from run "dense": it is not in the workspace \(known runs: bm25\)/,
  );
});
