import assert from "node:assert/strict";
import fc from "fast-check";
import { Bm25Index } from "./bm25_index.ts";
import { invert } from "./_build.ts";
import { fieldStats } from "./_index_data.ts";
import { readIndexFiles, readIndexManifest } from "./_index_files.ts";
import { maxScoreSearch } from "./_max_score.ts";
import { scoringContext } from "./_scoring.ts";
import { type Scratch, searchTerms } from "./_search.ts";
import { seededRandom as prng } from "@lib/metrics/mod.ts";

Deno.test("MaxScore over a written and reloaded index equals term-at-a-time over the in-memory one", async () => {
  const dir = await Deno.makeTempDir();
  let run = 0;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer({ min: 0, max: 1e9 }),
          n: fc.integer({ min: 1, max: 5000 }),
          vocab: fc.integer({ min: 5, max: 400 }),
          skew: fc.double({ min: 1, max: 5, noNaN: true }),
          segment: fc.integer({ min: 50, max: 100_000 }),
          k1: fc.double({ min: 0, max: 3, noNaN: true }),
          b: fc.double({ min: 0, max: 1, noNaN: true }),
          exact: fc.boolean(),
        }),
        async ({ seed, n, vocab, skew, segment, k1, b, exact }) => {
          const rand = prng(seed);
          const word = () => `v${Math.floor(rand() ** skew * vocab)}q`;
          const docs = Array.from({ length: n }, (_, i) => ({
            id: `d${i}`,
            text: Array.from({ length: Math.floor(rand() * 25) }, word).join(" "),
          }));
          const path = `${dir}/i${run++}`;
          await Bm25Index.write(docs, path, { segmentPostings: segment });
          const loaded = await readIndexFiles(path, await readIndexManifest(path));
          const memory = invert(docs);
          const stats = fieldStats(memory.lengths);
          const ctxLoaded = scoringContext(loaded, stats, k1, b, exact);
          const ctxMemory = scoringContext(memory, stats, k1, b, exact);
          const scratch: Scratch = { acc: new Float64Array(n), touched: new Int32Array(n) };
          const vocabIds = new Map(memory.terms.map((t, i) => [t, i]));
          for (let q = 0; q < 8; q++) {
            const counts = new Map<number, number>();
            for (let i = 0; i < 1 + Math.floor(rand() * 40); i++) {
              const t = vocabIds.get(word().toLowerCase());
              if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
            }
            const terms = [...counts].map(([term, boost]) => ({ term, boost }));
            for (const k of [1, 7, 100]) {
              const expected = searchTerms(memory, ctxMemory, stats.docCount, terms, k, scratch);
              const got = maxScoreSearch(loaded, ctxLoaded, stats.docCount, terms, k, scratch);
              assert.deepEqual(got, expected, `query ${q}, k ${k}`);
            }
          }
          await Deno.remove(path, { recursive: true });
        },
      ),
      { numRuns: 10 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
