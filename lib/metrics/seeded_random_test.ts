import assert from "node:assert/strict";
import { seededRandom } from "./seeded_random.ts";

Deno.test("seededRandom: mulberry32 reference values for seeds 42 and 0", () => {
  const r = seededRandom(42);
  assert.deepEqual([r(), r(), r()], [0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  const z = seededRandom(0);
  assert.deepEqual([z(), z()], [0.26642920868471265, 0.0003297457005828619]);
});

Deno.test("seededRandom: same seed, same sequence; values stay in [0, 1)", () => {
  const a = seededRandom(2024);
  const b = seededRandom(2024);
  const xs = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(xs, Array.from({ length: 1000 }, () => b()));
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean}`);
  assert.notEqual(seededRandom(2025)(), xs[0]);
});

Deno.test("seededRandom: a seed that is not finite fails with the value", () => {
  assert.throws(() => seededRandom(NaN), /Cannot seed the random generator with NaN/);
});
