import assert from "node:assert/strict";
import { type SetChoice, setwiseRerank } from "./setwise_rerank.ts";

/** Picks the largest number of the set, recording each set. */
function largest(sets: number[][]) {
  return (set: readonly number[]): Promise<SetChoice> => {
    sets.push([...set]);
    return Promise.resolve({ best: set.indexOf(Math.max(...set)) });
  };
}

Deno.test("setwiseRerank selects the top k by heap sort over sets of c", async () => {
  // Hand trace, c = 3 (two children), candidates 1..5 in first-stage order [3, 1, 4, 5, 2].
  // Heapify: node 1 (1) with children 5, 2 -> 5 wins, swap: [3, 5, 4, 1, 2];
  // node 0 (3) with 5, 4 -> 5 wins: [5, 3, 4, 1, 2]; node 1 (3) with 1, 2 -> 3 stays.
  // Extract 5: [2, 3, 4, 1] -> {2, 3, 4}: 4 -> [4, 3, 2, 1] (node 2 has no child).
  // Extract 4: the second of k = 2, so nothing more is asked.
  const sets: number[][] = [];
  const { ranked, counts } = await setwiseRerank([3, 1, 4, 5, 2], largest(sets), { c: 3, k: 2 });
  assert.deepEqual(sets, [[1, 5, 2], [3, 5, 4], [3, 1, 2], [2, 3, 4]]);
  assert.deepEqual(ranked, [5, 4, 3, 1, 2]);
  assert.deepEqual(counts, { comparisons: 4, unparsed: 0, failed: 0 });
});

Deno.test("setwiseRerank orders the whole list with k = n and keeps the rest below depth", async () => {
  const list = [7, 3, 9, 1, 8, 2, 6, 4, 5, 0, 11, 10];
  const { ranked } = await setwiseRerank(list, largest([]), { c: 4, k: 12 });
  assert.deepEqual(ranked, [...list].sort((a, b) => b - a));
  const cut = await setwiseRerank(list, largest([]), { c: 4, k: 2, depth: 5 });
  assert.deepEqual(cut.ranked, [9, 8, 7, 3, 1, 2, 6, 4, 5, 0, 11, 10]);
});

Deno.test("setwiseRerank decides unparsed or failed comparisons by first-stage order, counted", async () => {
  const answers: SetChoice[] = [{ unparsed: "no label" }, { failed: "HTTP 500" }];
  const { ranked, counts } = await setwiseRerank(
    ["a", "b", "c"],
    () => Promise.resolve(answers.shift() ?? { best: 0 }),
    { c: 3, k: 2 },
  );
  // Heapify asks {a, b, c} (unparsed: a, the earliest, stays on top); extracting a moves c
  // to the root and asks {c, b} (failed: b, the earlier, wins).
  assert.deepEqual(ranked, ["a", "b", "c"]);
  assert.deepEqual(counts, { comparisons: 2, unparsed: 1, failed: 1, firstError: "HTTP 500" });
  // A chooser that never answers leaves a longer list in first-stage order.
  const silent = await setwiseRerank(
    [5, 3, 8, 1, 9, 2, 7],
    () => Promise.resolve({ unparsed: "" }),
    { c: 3, k: 7 },
  );
  assert.deepEqual(silent.ranked, [5, 3, 8, 1, 9, 2, 7]);
  await assert.rejects(
    () => setwiseRerank([1, 2], () => Promise.resolve({ best: 5 })),
    /outside the set of 2/,
  );
});

Deno.test("setwiseRerank with unread: parent keeps the sifted node where no choice was read", async () => {
  const answers: SetChoice[] = [{ unparsed: "no label" }, { failed: "HTTP 500" }];
  const { ranked, counts } = await setwiseRerank(
    ["a", "b", "c"],
    () => Promise.resolve(answers.shift() ?? { best: 0 }),
    { c: 3, k: 2, unread: "parent" },
  );
  // Heapify asks {a, b, c} (unparsed: the parent a stays); extracting a moves c to the
  // root and asks {c, b} (failed: the parent c stays, where `earliest` would pick b).
  assert.deepEqual(ranked, ["a", "c", "b"]);
  assert.deepEqual(counts, { comparisons: 2, unparsed: 1, failed: 1, firstError: "HTTP 500" });
});
