import assert from "node:assert/strict";
import { coverageScores } from "./coverage_scores.ts";

Deno.test("coverageScores: hand-checked coverage and density", () => {
  const s = coverageScores({
    ratings: new Map([["q1", 5], ["q2", 2], ["q3", 3], ["q9", 5]]),
    answerable: ["q1", "q2", "q3", "q4"],
    tokens: 100,
    oracleTokens: 400,
  });
  // covered q1, q3 -> 2/4 = 0.5; density ((0.5/100)/(1/400))^0.5 = sqrt(2)
  assert.equal(s.coverage, 0.5);
  assert.equal(s.density, Math.SQRT2);
  assert.deepEqual(s.covered, ["q1", "q3"]);
  assert.equal(s.unparseable, 0);
});

Deno.test("coverageScores: w=1, tau=5, -1 counted as 0 and reported", () => {
  const s = coverageScores({
    ratings: new Map([["a", -1], ["b", 5], ["c", 4]]),
    answerable: ["a", "b", "c"],
    tokens: 300,
    oracleTokens: 300,
    oracleCoverage: 1,
  }, { tau: 5, w: 1 });
  // covered b only -> 1/3; density (1/3/300)/(1/300) = 1/3
  assert.equal(s.coverage, 1 / 3);
  assert.ok(Math.abs(s.density! - 1 / 3) < 1e-12);
  assert.equal(s.unparseable, 1);
});

Deno.test("coverageScores: the oracle context itself has density 1; empty A gives null", () => {
  const s = coverageScores({
    ratings: new Map([["a", 4], ["b", 3]]),
    answerable: ["a", "b"],
    tokens: 250,
    oracleTokens: 250,
  });
  assert.equal(s.coverage, 1);
  assert.equal(s.density, 1);
  const none = coverageScores({ ratings: new Map(), answerable: [], tokens: 10, oracleTokens: 0 });
  assert.deepEqual(none, { coverage: null, density: null, covered: [], unparseable: 0 });
});

Deno.test("coverageScores: an empty text has density 0; a missing oracle fails", () => {
  const s = coverageScores({ ratings: new Map(), answerable: ["a"], tokens: 0, oracleTokens: 10 });
  assert.equal(s.coverage, 0);
  assert.equal(s.density, 0);
  assert.throws(
    () => coverageScores({ ratings: new Map(), answerable: ["a"], tokens: 5, oracleTokens: 0 }),
    /oracle context has 0 tokens/,
  );
});
