import assert from "node:assert/strict";
import { keyPointScores } from "./key_point_scores.ts";

Deno.test("keyPointScores: per-question KPR, KPP, KPF and their means (hand-checked)", () => {
  // q1: KPR 1/2, KPP 2/2, KPF 2*0.5*1/1.5 = 2/3.
  // q2: KPR 1/1, KPP 0/1, KPF 0.
  // q3: KPR 2/4, KPP 1/1, KPF 2/3.
  const s = keyPointScores([
    { entailed: [true, false], statedSupported: [true, true] },
    { entailed: [true], statedSupported: [false] },
    { entailed: [true, false, true, false], statedSupported: [true] },
  ]);
  assert.equal(s.kpr, 2 / 3);
  assert.equal(s.kpp, 2 / 3);
  assert.ok(Math.abs(s.kpf - 4 / 9) < 1e-15);
  assert.deepEqual(s.perQuestion.map((q) => q.kpr), [0.5, 1, 0.5]);
  assert.deepEqual(s.questions, { kpr: 3, kpp: 3, kpf: 3 });
});

Deno.test("keyPointScores: a question without key points has no KPR and is not averaged", () => {
  const r = keyPointScores([
    { entailed: [], statedSupported: [true, false] },
    { entailed: [false, false] },
  ]);
  assert.equal(r.kpr, 0);
  assert.deepEqual(r.questions, { kpr: 1, kpp: 1, kpf: 0 });
  assert.equal(r.kpp, 0.5);
  assert.ok(Number.isNaN(r.kpf));
  assert.ok(Number.isNaN(r.perQuestion[0].kpr));
  // Both zero: KPF is 0, not NaN.
  assert.equal(keyPointScores([{ entailed: [false], statedSupported: [false] }]).kpf, 0);
  assert.ok(Number.isNaN(keyPointScores([]).kpr));
});
