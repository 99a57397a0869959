import assert from "node:assert/strict";
import { parsePermutation } from "./parse_permutation.ts";

const clean = { parsed: true, missing: 0, repeated: 0, unknown: 0 };

Deno.test("parsePermutation reads a complete ranking, with or without prose and markdown", () => {
  assert.deepEqual(parsePermutation("[3] > [1] > [2]", 3), { order: [2, 0, 1], ...clean });
  assert.deepEqual(parsePermutation("Ranking:\n**[2] > [3] > [1]**", 3), {
    order: [1, 2, 0],
    ...clean,
  });
  // The ranking is the longest chain; an identifier cited in prose is not read.
  assert.deepEqual(
    parsePermutation("Passage [3] mentions the date.\n[2] > [1] > [3]", 3),
    { order: [1, 0, 2], ...clean },
  );
  // Comma-separated and bare-number chains.
  assert.deepEqual(parsePermutation("[2], [1], [3]", 3), { order: [1, 0, 2], ...clean });
  assert.deepEqual(parsePermutation("2 > 3 > 1", 3), { order: [1, 2, 0], ...clean });
});

Deno.test("parsePermutation repairs malformed rankings and counts each repair", () => {
  // Missing [2] and [4] appended in input order; repeated [3] and unknown [9], [0] dropped.
  assert.deepEqual(parsePermutation("[3] > [1] > [3] > [9] > [0]", 4), {
    order: [2, 0, 1, 3],
    parsed: true,
    missing: 2,
    repeated: 1,
    unknown: 2,
  });
  // A truncated answer: one identifier, the rest appended.
  assert.deepEqual(parsePermutation("[4] >", 4), {
    order: [3, 0, 1, 2],
    parsed: true,
    missing: 3,
    repeated: 0,
    unknown: 0,
  });
});

Deno.test("parsePermutation never guesses: no identifier means unparsed, input order kept", () => {
  const none = { parsed: false, missing: 0, repeated: 0, unknown: 0 };
  for (const text of ["", "The second passage is best.", "Passage 2 then 1", "2"]) {
    assert.deepEqual(parsePermutation(text, 3), { order: [0, 1, 2], ...none }, text);
  }
  assert.throws(() => parsePermutation("[1]", 0), /positive integer/);
});

Deno.test("parsePermutation reads the final answer only, and no ranking from two or a corrected one", () => {
  assert.deepEqual(
    parsePermutation("<think>First guess [1] > [2] > [3]</think>\n[3] > [2] > [1]", 3),
    {
      order: [2, 1, 0],
      ...clean,
    },
  );
  // Two different complete rankings: neither is final.
  assert.equal(parsePermutation("[1] > [2] > [3]\nor perhaps [3] > [2] > [1]", 3).parsed, false);
  assert.equal(parsePermutation("[2] > [1] > [3]\nCorrection: [1] > [2] > [3]", 3).parsed, false);
  // The same ranking twice, or a shorter one before the full one, is one ranking.
  assert.deepEqual(parsePermutation("[2] > [1]\nSo: [2] > [1] > [3]", 3), {
    order: [1, 0, 2],
    ...clean,
  });
  assert.equal(parsePermutation("<think>[2] > [1] > [3]", 3).parsed, false);
});

Deno.test("parsePermutation reads chains naming passages, numbered lists and labelled bare chains", () => {
  assert.deepEqual(parsePermutation("Passage [2] > Passage [3] > Passage [1]", 3).order, [1, 2, 0]);
  assert.deepEqual(parsePermutation("1. [3]\n2. [1]\n3. [2]", 3).order, [2, 0, 1]);
  assert.deepEqual(parsePermutation("Ranking: 2 > 3 > 1", 3).order, [1, 2, 0]);
  // A chain outranks a numbered explanation that follows it.
  assert.deepEqual(
    parsePermutation("[3] > [1] > [2]\n1. [1] names the dam\n2. [2] is related", 3).order,
    [2, 0, 1],
  );
});
