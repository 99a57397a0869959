import assert from "node:assert/strict";
import { keyPointScores } from "./key_point_scores.ts";
import { keyPointRates } from "./key_point_rates.ts";

Deno.test("keyPointScores averages recall per question and pools precision", () => {
  // Recall: q1 1/2, q2 1/1, q3 2/4 -> (0.5 + 1 + 0.5)/3 = 2/3. Precision: 3 of 4 stated supported.
  const s = keyPointScores([
    { entailed: [true, false], statedSupported: [true, true] },
    { entailed: [true], statedSupported: [false] },
    { entailed: [true, false, true, false], statedSupported: [true] },
  ]);
  assert.equal(s.kpr, 2 / 3);
  assert.equal(s.kpp, 0.75);
  assert.ok(Math.abs(s.kpf - (2 * (2 / 3) * 0.75) / (2 / 3 + 0.75)) < 1e-15);
  // Questions without key points are skipped; no stated points -> KPP NaN.
  const r = keyPointScores([{ entailed: [] }, { entailed: [false, false] }]);
  assert.equal(r.kpr, 0);
  assert.ok(Number.isNaN(r.kpp));
});

Deno.test("keyPointRates gives the three-way shares", () => {
  assert.deepEqual(keyPointRates(["supported", "omitted", "supported", "contradicted"]), {
    supported: 0.5,
    omitted: 0.25,
    contradicted: 0.25,
  });
  assert.throws(() => keyPointRates(["maybe" as "omitted"]), /label "maybe"/);
});
