import assert from "node:assert/strict";
import { cosine } from "./cosine.ts";

Deno.test("cosine of dense and sparse vectors", () => {
  assert.ok(Math.abs(cosine(Float32Array.of(1, 0), Float32Array.of(1, 1)) - Math.SQRT1_2) < 1e-7);
  assert.equal(cosine(Float32Array.of(0, 0), Float32Array.of(1, 1)), 0);
  const a = { indices: Uint32Array.of(0, 2), values: Float32Array.of(1, 1) };
  const b = { indices: Uint32Array.of(2, 5), values: Float32Array.of(1, 1) };
  assert.ok(Math.abs(cosine(a, b) - 0.5) < 1e-7);
  assert.throws(() => cosine(Float32Array.of(1), Float32Array.of(1, 2)), /lengths 1 and 2/);
  assert.throws(() => cosine(Float32Array.of(1), a), /dense vector with a sparse one/);
});
