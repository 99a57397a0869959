import assert from "node:assert/strict";
import { lexicalGroups, lexicalMerger } from "./lexical_merger.ts";

Deno.test("lexicalGroups: greedy by Jaccard over analysed terms; every original once", () => {
  const points = [
    "The bridge opened in 1932.", // {bridg, open, 1932}
    "Tolls were dropped in 1990.", // {toll, drop, 1990}
    "In 1932 the bridge was opened.", // same terms as 0: J = 1
    "The bridge opened late.", // {bridg, open, late}: J with 0 = 2/4 = 0.5
  ];
  assert.deepEqual(lexicalGroups(points, 0.6), [
    { text: points[0], sources: [0, 2] },
    { text: points[1], sources: [1] },
    { text: points[3], sources: [3] },
  ]);
  assert.deepEqual(lexicalGroups(points, 0.5).map((g) => g.sources), [[0, 2, 3], [1]]);
  assert.throws(() => lexicalGroups(points, 0), /threshold 0: use a value in \(0, 1\]/);
  assert.equal(lexicalMerger({ threshold: 0.5 }).name, "offline-lexical(0.5)");
});
