import assert from "node:assert/strict";
import { splitMeasureList } from "./split_measure_list.ts";

Deno.test("splitMeasureList splits on spaces and commas outside parentheses", () => {
  assert.deepEqual(splitMeasureList("P@10, nDCG@10  Den(tau=4, w=1)@10,,Cov"), [
    "P@10",
    "nDCG@10",
    "Den(tau=4,w=1)@10",
    "Cov",
  ]);
  assert.deepEqual(splitMeasureList("  "), []);
  assert.throws(() => splitMeasureList("Cov(tau=3"), /unbalanced parentheses/);
  assert.throws(() => splitMeasureList("Cov)tau=3("), /unbalanced parentheses/);
});
