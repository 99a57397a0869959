import assert from "node:assert/strict";
import { runSignificance } from "@lib/metrics/mod.ts";
import { table } from "@lib/report/mod.ts";
import { withSignificance } from "./with_significance.ts";

const v = (run: string, topicId: string, value: number) => ({ run, topicId, value });

Deno.test("withSignificance adds interval and mark columns after each named column", () => {
  const topics = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"];
  const per = {
    good: [0.9, 0.8, 0.85, 0.7, 0.95, 0.9, 0.8, 0.75],
    bad: [0.5, 0.4, 0.6, 0.45, 0.55, 0.5, 0.4, 0.6],
    flat: [0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3],
  };
  const values = Object.entries(per).flatMap(([run, xs]) => xs.map((x, i) => v(run, topics[i], x)));
  const t = table({
    columns: [{ key: "n", label: "N" }, { key: "cov", label: "Cov", direction: "higher" }],
    rows: Object.keys(per).map((label) => ({ label, values: { n: 8, cov: 0 } })),
    notes: ["offline backends: lexical judge"],
  });
  const out = withSignificance(t, { cov: [...values, v("hidden", "t1", 1)] }, {
    trials: 4000,
    seed: 2,
  });
  assert.deepEqual(out.columns.map((c) => c.key), ["n", "cov", "cov:ci", "cov:sig"]);
  assert.equal(out.rows[2].values["cov:ci"], "[0.300, 0.300]"); // constant: zero width
  const s = runSignificance(values, { trials: 4000, seed: 2 });
  // good beats bad and flat on all 8 topics (exact p 2/256, x3 by Holm); bad beats flat too.
  assert.deepEqual(s.pairs.map((p) => p.significant), [true, true, true]);
  assert.deepEqual(out.rows.map((r) => r.values["cov:sig"]), ["2,3", "3", ""]);
  assert.equal(out.notes!.length, 2);
  assert.equal(t.columns.length, 2, "input not modified");
  assert.throws(
    () => withSignificance(t, { nope: values }),
    /Cannot add significance to column "nope"/,
  );
});
