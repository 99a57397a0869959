import assert from "node:assert/strict";
import { Bm25Index } from "./bm25_index.ts";
import { bm25Idf, termScore } from "./_scoring.ts";
import { byteToLength, lengthToByte } from "./_small_float.ts";
import { analyze } from "../text/mod.ts";
import { seededRandom as prng } from "@lib/metrics/mod.ts";

const f = Math.fround;

/** Scores every document by Lucene's BM25 directly from the texts (no index, no pruning). */
function exhaustive(docs: { id: string; text: string }[], query: string, k1 = 0.9, b = 0.4) {
  const terms = docs.map((d) => analyze(d.text));
  const lengths = terms.map((t) => t.length);
  const docCount = lengths.filter((l) => l > 0).length;
  const avgdl = f(lengths.reduce((s, l) => s + l, 0) / docCount);
  const norm = (len: number) => f(1 / f(f(k1) * f(f(1 - f(b)) + f(f(f(b) * len) / avgdl))));
  const df = new Map<string, number>();
  for (const t of terms) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
  const boosts = new Map<string, number>();
  for (const w of analyze(query)) if (df.has(w)) boosts.set(w, (boosts.get(w) ?? 0) + 1);
  return docs.map((d, i) => {
    const tf = new Map<string, number>();
    for (const w of terms[i]) tf.set(w, (tf.get(w) ?? 0) + 1);
    let sum = 0;
    let matched = false;
    for (const [w, boost] of boosts) {
      const n = tf.get(w);
      if (!n) continue;
      matched = true;
      sum += termScore(
        f(boost * bm25Idf(df.get(w)!, docCount)),
        n,
        norm(byteToLength(lengthToByte(lengths[i]))),
      );
    }
    return { docId: d.id, score: f(sum), i, matched };
  }).filter((x) => x.matched)
    .sort((x, y) => y.score - x.score || x.i - y.i)
    .map(({ docId, score }) => ({ docId, score }));
}

Deno.test("pruned search equals exhaustive Lucene scoring on long queries over long posting lists", () => {
  const rand = prng(2024);
  // 25k short documents over a skewed vocabulary: the head words have posting lists
  // over 16k long (score tables, candidate pruning), and many scores tie.
  const vocab = Array.from({ length: 300 }, (_, i) => `w${i}x`);
  const word = () => vocab[Math.floor(rand() ** 4 * vocab.length)];
  const docs = Array.from({ length: 25_000 }, (_, i) => ({
    id: `d${i}`,
    text: Array.from({ length: 3 + Math.floor(rand() * 12) }, word).join(" "),
  }));
  const index = Bm25Index.build(docs);
  for (let q = 0; q < 12; q++) {
    const query = Array.from({ length: 20 + Math.floor(rand() * 60) }, word).join(" ");
    const expected = exhaustive(docs, query);
    for (const k of [1, 10, 100, 1000]) {
      assert.deepEqual(index.search(query, k), expected.slice(0, k), `query ${q}, k ${k}`);
    }
  }
});
