import assert from "node:assert/strict";
import {
  countGenerationFlags,
  describeGenerationFlags,
  generationFlag,
} from "./generation_flag.ts";

Deno.test("generationFlag: empty, number-only and near-empty texts; reports pass", () => {
  assert.equal(generationFlag("", 0, 530), "empty");
  assert.equal(generationFlag("  \n ", 0), "empty");
  for (const n of ["4", "-2", "0.85", "85%", "3.", ",5"]) {
    assert.equal(generationFlag(n, 1, 530), "number-only", n);
  }
  assert.equal(generationFlag("The bridge fell.", 4, 530), "near-empty");
  // 20 tokens against 530 is under 5%; against 200 it is a short report.
  const twenty = "word ".repeat(20).trim();
  assert.equal(generationFlag(twenty, 20, 530), "near-empty");
  assert.equal(generationFlag(twenty, 20, 200), undefined);
  assert.equal(generationFlag(twenty, 20), undefined);
  assert.equal(
    generationFlag("4 people died when the bridge fell into the river.", 12, 100),
    undefined,
  );
});

Deno.test("countGenerationFlags and describeGenerationFlags summarise a run", () => {
  const counts = countGenerationFlags([
    { text: "4", tokens: 1, budget: 530 },
    { text: "5", tokens: 1, budget: 530 },
    { text: "", tokens: 0 },
    { text: "A full report " + "x ".repeat(100), tokens: 103, budget: 530 },
  ]);
  assert.deepEqual(counts, { "number-only": 2, empty: 1 });
  assert.equal(describeGenerationFlags(counts), "1 empty, 2 only a number");
  assert.equal(describeGenerationFlags({}), "");
});
