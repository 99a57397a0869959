import assert from "node:assert/strict";
import { parseFinalScore } from "./parse_final_score.ts";

Deno.test("parseFinalScore reads the last ##final score line", () => {
  assert.deepEqual(parseFinalScore("M: 2\nT: 3\n##final score: 2"), { ok: true, value: 2 });
  assert.deepEqual(parseFinalScore("## Final Score:3 ... ##final score: 1"), {
    ok: true,
    value: 1,
  });
  assert.deepEqual(parseFinalScore("score 3"), {
    ok: false,
    raw: "score 3",
    reason: 'no "##final score: N" line found',
  });
  assert.deepEqual(parseFinalScore("##final score: 5"), {
    ok: false,
    raw: "##final score: 5",
    reason: "final score 5 is outside 0-3",
  });
});
