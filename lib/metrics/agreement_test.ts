import assert from "node:assert/strict";
import { cohenKappa } from "./cohen_kappa.ts";
import { fleissKappa } from "./fleiss_kappa.ts";
import { randolphKappa } from "./randolph_kappa.ts";
import { answerabilityAgreement } from "./answerability_agreement.ts";

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

// The classic Fleiss (1971) worked example: 10 items, 14 raters, 5 categories.
// P̄ = 0.378022, P̄e = 0.213176 -> kappa = 0.209930.
const FLEISS = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

Deno.test("cohenKappa on the textbook 2x2 example", () => {
  // 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15. p_o = 0.7, p_e = 0.5*0.6 + 0.5*0.4 = 0.5.
  const a = [...Array(25).fill("y"), ...Array(25).fill("n")];
  const b = [
    ...Array(20).fill("y"),
    ...Array(5).fill("n"),
    ...Array(10).fill("y"),
    ...Array(15).fill("n"),
  ];
  close(cohenKappa(a, b), 0.4);
  assert.equal(cohenKappa([1, 2, 3], [1, 2, 3]), 1);
  assert.ok(Number.isNaN(cohenKappa([1, 1], [1, 1])));
  assert.throws(() => cohenKappa([1], [1, 2]), /the samples have 1 and 2 values/);
});

Deno.test("fleissKappa and randolphKappa on Fleiss' worked example", () => {
  close(fleissKappa(FLEISS), 0.20993070442195522, 1e-12);
  assert.equal(Math.round(fleissKappa(FLEISS) * 1000) / 1000, 0.21);
  // Randolph: (P̄ - 1/5) / (1 - 1/5), P̄ = 0.37802197802197807.
  close(randolphKappa(FLEISS), (0.37802197802197807 - 0.2) / 0.8);
  // Three raters, two categories: P̄ = (1 + 1 + 1/3)/3 = 7/9; shares 4/9, 5/9.
  const small = [[0, 3], [3, 0], [1, 2]];
  close(fleissKappa(small), (7 / 9 - 41 / 81) / (1 - 41 / 81));
  close(randolphKappa(small), (7 / 9 - 0.5) / 0.5);
  assert.throws(() => fleissKappa([[1, 2], [2, 2]]), /item 2 has 2 categories and 4 ratings/);
  assert.throws(() => fleissKappa([]), /no items/);
});

Deno.test("answerabilityAgreement binarises ratings at tau", () => {
  // Judge >= 3: T F T F T; humans: T F F T T -> tp 2, fp 1, fn 1, tn 1.
  const r = answerabilityAgreement([5, 1, 3, 0, 4], [true, false, false, true, true]);
  assert.deepEqual(
    [r.truePositives, r.falsePositives, r.falseNegatives, r.trueNegatives],
    [2, 1, 1, 1],
  );
  close(r.precision, 2 / 3);
  close(r.recall, 2 / 3);
  close(r.f1, 2 / 3);
  // kappa: p_o = 3/5, p_e = 0.6*0.6 + 0.4*0.4 = 0.52 -> 0.08/0.48.
  close(r.kappa, 0.08 / 0.48);
  assert.equal(answerabilityAgreement([5, 4], [true, true], { tau: 5 }).recall, 0.5);
});
