import assert from "node:assert/strict";
import { listwiseRerank, type WindowRanking } from "./listwise_rerank.ts";

const perm = (order: number[]): WindowRanking => ({
  order,
  parsed: true,
  missing: 0,
  repeated: 0,
  unknown: 0,
});

Deno.test("listwiseRerank slides bottom up, rewriting each window before the next", async () => {
  // Window 3, stride 2 over 5 items: windows [2, 5) then [0, 3); each window reversed.
  const seen: string[][] = [];
  const { ranked, counts } = await listwiseRerank(
    ["a", "b", "c", "d", "e"],
    (w) => {
      seen.push([...w]);
      return Promise.resolve(perm([...w.keys()].reverse()));
    },
    { window: 3, stride: 2 },
  );
  // [c, d, e] -> [e, d, c]: a, b, e, d, c; then [a, b, e] -> [e, b, a].
  assert.deepEqual(seen, [["c", "d", "e"], ["a", "b", "e"]]);
  assert.deepEqual(ranked, ["e", "b", "a", "d", "c"]);
  assert.equal(counts.calls, 2);
});

Deno.test("listwiseRerank keeps failed and unparsed windows in order and counts them", async () => {
  const answers: WindowRanking[] = [
    { failed: "HTTP 500" },
    { order: [0, 1, 2], parsed: false, missing: 0, repeated: 0, unknown: 0 },
    { order: [1, 0, 2], parsed: true, missing: 1, repeated: 2, unknown: 3 },
  ];
  const { ranked, counts } = await listwiseRerank(
    ["a", "b", "c", "d", "e", "f", "g"],
    () => Promise.resolve(answers.shift()!),
    { window: 3, stride: 2, depth: 7 },
  );
  // Windows [4, 7) failed, [2, 5) unparsed, [0, 3) swapped its first two.
  assert.deepEqual(ranked, ["b", "a", "c", "d", "e", "f", "g"]);
  assert.deepEqual(counts, {
    calls: 3,
    missing: 1,
    repeated: 2,
    unknown: 3,
    unparsed: 1,
    failed: 1,
    firstError: "HTTP 500",
  });
  await assert.rejects(
    () => listwiseRerank(["a", "b"], () => Promise.resolve(perm([0, 0]))),
    /not a permutation of 0..1/,
  );
  await assert.rejects(
    () => listwiseRerank(["a"], () => Promise.resolve(perm([0])), { passes: 0 }),
    /passes must be a positive integer/,
  );
});
