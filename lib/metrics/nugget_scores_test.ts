import assert from "node:assert/strict";
import { meanNuggetScores, type NuggetJudgment, nuggetScores } from "./nugget_scores.ts";

const REFERENCE: NuggetJudgment[] = [
  { importance: "vital", assignment: "support" },
  { importance: "vital", assignment: "partial_support" },
  { importance: "okay", assignment: "not_support" },
];

Deno.test("nuggetScores reproduces the TREC 2024 RAG track (AutoNuggetizer) reference", () => {
  // strict_vital 1/2; vital (1 + 0.5)/2; strict_all 1/3; all (1 + 0.5)/3.
  assert.deepEqual(nuggetScores(REFERENCE), {
    strictVital: 0.5,
    vital: 0.75,
    strictAll: 1 / 3,
    all: 0.5,
  });
});

Deno.test("failed counts as not_support and empty lists score 0", () => {
  const failed: NuggetJudgment[] = [
    { importance: "vital", assignment: "failed" },
    { importance: "okay", assignment: "support" },
  ];
  assert.deepEqual(nuggetScores(failed), { strictVital: 0, vital: 0, strictAll: 0.5, all: 0.5 });
  // No vital nuggets: vital scores are 0, not NaN.
  assert.deepEqual(nuggetScores([{ importance: "okay", assignment: "partial_support" }]), {
    strictVital: 0,
    vital: 0,
    strictAll: 0,
    all: 0.5,
  });
  assert.deepEqual(nuggetScores([]), { strictVital: 0, vital: 0, strictAll: 0, all: 0 });
});

Deno.test("meanNuggetScores averages over answers", () => {
  const mean = meanNuggetScores([REFERENCE, [{ importance: "vital", assignment: "support" }]]);
  assert.deepEqual(mean, {
    strictVital: 0.75,
    vital: 0.875,
    strictAll: (1 / 3 + 1) / 2,
    all: 0.75,
  });
  assert.throws(
    () => nuggetScores([{ importance: "vital", assignment: "yes" as "support" }]),
    /Cannot score nugget assignment "yes"/,
  );
  assert.throws(
    () => nuggetScores([{ importance: "must" as "vital", assignment: "support" }]),
    /importance "must"/,
  );
});
