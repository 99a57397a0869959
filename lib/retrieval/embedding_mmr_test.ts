import assert from "node:assert/strict";
import { embeddingMmr } from "./embedding_mmr.ts";
import type { Embedder } from "@lib/types/mod.ts";

/** Fixed 2-d vectors by text, so cosines are known by hand. */
const fixed = (table: Record<string, number[]>): Embedder => ({
  name: "fixed",
  embed: (texts) => Promise.resolve(texts.map((t) => new Float32Array(table[t]))),
});

Deno.test("embeddingMmr trades first-stage score against the cosine of the embedder's vectors", async () => {
  // a and b point the same way (cosine 1), c is orthogonal to both (cosine 0).
  const embedder = fixed({ a: [1, 0], b: [2, 0], c: [0, 1] });
  const hits = [
    { docId: "a", score: 3, text: "a" },
    { docId: "b", score: 2, text: "b" },
    { docId: "c", score: 1, text: "c" },
  ];
  // Normalised relevance: a 1, b 0.5, c 0. Step 1: a (0.5 * 1). Step 2: b 0.5*0.5 - 0.5*1 = -0.25,
  // c 0.5*0 - 0.5*0 = 0 -> c. Step 3: b -0.25.
  const picks = await embeddingMmr(hits, embedder, { lambda: 0.5 });
  assert.deepEqual(picks.map((p) => [p.docId, p.mmr]), [["a", 0.5], ["c", 0], ["b", -0.25]]);
  // lambda 1 is the first-stage order.
  const plain = await embeddingMmr(hits, embedder, { lambda: 1 });
  assert.deepEqual(plain.map((p) => p.docId), ["a", "b", "c"]);
  const short: Embedder = { name: "short", embed: () => Promise.resolve([]) };
  await assert.rejects(() => embeddingMmr(hits, short), /short returned 0 vectors for 3 texts/);
});
