import assert from "node:assert/strict";
import { kendallTau } from "@lib/metrics/mod.ts";
import { kendallFast } from "./_kendall_fast.ts";
import { seededRandom } from "@lib/metrics/mod.ts";

Deno.test("kendallFast: the scipy reference value and the O(n²) tau-b on tied random data", () => {
  assert.ok(
    Math.abs(kendallFast([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) - -0.47140452079103173) < 1e-12,
  );
  const random = seededRandom(5);
  for (const n of [2, 3, 10, 57, 300]) {
    const x = Array.from({ length: n }, () => Math.floor(random() * 6));
    const y = Array.from(
      { length: n },
      (_, i) => (random() < 0.5 ? x[i] : Math.floor(random() * 6)),
    );
    const slow = kendallTau(x, y);
    const fast = kendallFast(x, y);
    assert.ok(
      Number.isNaN(slow) ? Number.isNaN(fast) : Math.abs(slow - fast) < 1e-12,
      `n=${n}: ${slow} vs ${fast}`,
    );
  }
  assert.ok(Number.isNaN(kendallFast([1, 1, 1], [1, 2, 3])));
});
