import assert from "node:assert/strict";
import { invert } from "./_build.ts";
import { fieldStats } from "./_index_data.ts";
import { maxScoreSearch } from "./_max_score.ts";
import { scoringContext } from "./_scoring.ts";
import { type Scratch, searchTerms } from "./_search.ts";
import { seededRandom as prng } from "@lib/metrics/mod.ts";

Deno.test("windowed MaxScore equals term-at-a-time evaluation, windows skipped or not", () => {
  const rand = prng(7);
  // 20k documents = 10 windows. Head words are everywhere; "rare<i>" words occur only in
  // documents 4096-6143 (window 2), so the other windows are skipped once the top k is
  // full; mid words are spread thinly. Many scores tie.
  const head = Array.from({ length: 40 }, (_, i) => `head${i}x`);
  const mid = Array.from({ length: 400 }, (_, i) => `mid${i}x`);
  const rare = Array.from({ length: 20 }, (_, i) => `rare${i}x`);
  const pick = (a: string[]) => a[Math.floor(rand() ** 2 * a.length)];
  const docs = Array.from({ length: 20_000 }, (_, i) => {
    const words = Array.from({ length: 2 + Math.floor(rand() * 20) }, () => pick(head));
    if (rand() < 0.3) words.push(pick(mid));
    if (i >= 4096 && i < 6144 && rand() < 0.2) words.push(pick(rare), pick(rare));
    return { id: `d${i}`, text: words.join(" ") };
  });
  const data = invert(docs);
  const stats = fieldStats(data.lengths);
  const vocab = new Map(data.terms.map((t, i) => [t, i]));
  const n = docs.length;
  const scratch: Scratch = { acc: new Float64Array(n), touched: new Int32Array(n) };
  for (const exact of [false, true]) {
    const ctx = scoringContext(data, stats, 0.9, 0.4, exact);
    for (let q = 0; q < 20; q++) {
      const words = [
        ...Array.from({ length: 1 + Math.floor(rand() * 30) }, () => pick(head)),
        ...Array.from({ length: Math.floor(rand() * 10) }, () => pick(mid)),
        ...Array.from({ length: q % 2 ? 3 : 0 }, () => pick(rare)),
      ];
      const counts = new Map<number, number>();
      for (const w of words) counts.set(vocab.get(w)!, (counts.get(vocab.get(w)!) ?? 0) + 1);
      const terms = [...counts].map(([term, boost]) => ({ term, boost }));
      for (const k of [1, 10, 100, 5000]) {
        const expected = searchTerms(data, ctx, stats.docCount, terms, k, scratch);
        const got = maxScoreSearch(data, ctx, stats.docCount, terms, k, scratch);
        assert.ok(got.length > 0 && got.length <= k);
        assert.deepEqual(got, expected, `query ${q}, k ${k}, exact lengths ${exact}`);
      }
    }
  }
  // The window accumulator is left clean for the next search.
  assert.ok(scratch.window!.every((x: number) => x === 0));
});
