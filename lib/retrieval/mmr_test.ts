import assert from "node:assert/strict";
import { mmr } from "./mmr.ts";

const CANDS = [{ id: "a", score: 1 }, { id: "b", score: 0.9 }, { id: "c", score: 0.7 }];
const SIM: Record<string, number> = { "0,1": 0.9, "0,2": 0.1, "1,2": 0.2 };
const sim = (i: number, j: number) => SIM[[Math.min(i, j), Math.max(i, j)].join()];

Deno.test("mmr trades relevance for novelty (hand-checked)", () => {
  // Normalised relevance: a 1, b 2/3, c 0. Step 2: b 0.5*2/3 - 0.5*0.9 = -0.1167, c 0 - 0.05.
  const picks = mmr(CANDS, sim);
  assert.deepEqual(picks.map((p) => p.id), ["a", "c", "b"]);
  assert.deepEqual(picks.map((p) => Number(p.mmr.toFixed(4))), [0.5, -0.05, -0.1167]);
  assert.deepEqual(CANDS[0], { id: "a", score: 1 });
});

Deno.test("mmr with lambda 1 keeps relevance order; k limits; bad lambda throws", () => {
  assert.deepEqual(mmr(CANDS, sim, { lambda: 1 }).map((p) => p.id), ["a", "b", "c"]);
  assert.deepEqual(mmr(CANDS, sim, { k: 2 }).map((p) => p.id), ["a", "c"]);
  assert.deepEqual(mmr([], sim), []);
  assert.throws(() => mmr(CANDS, sim, { lambda: 2 }), /lambda=2/);
});
