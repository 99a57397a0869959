import assert from "node:assert/strict";
import fc from "fast-check";
import { Bm25Index } from "./bm25_index.ts";
import { seededRandom as prng } from "@lib/metrics/mod.ts";

const FILES = [
  "manifest.json",
  "docids.txt",
  "terms.txt",
  "offsets.u32",
  "blocks.u32",
  "lengths.u32",
  "postings.bin",
];

async function files(dir: string): Promise<Map<string, Uint8Array>> {
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.deepEqual(names, [...FILES].sort());
  return new Map(
    await Promise.all(names.map(async (n) => [n, await Deno.readFile(`${dir}/${n}`)] as const)),
  );
}

/** A skewed collection: a few words in most documents (lists of many blocks), a long tail. */
function collection(seed: number, n: number) {
  const rand = prng(seed);
  const vocab = Array.from({ length: 500 }, (_, i) => `w${i}x`);
  const word = () => vocab[Math.floor(rand() ** 3 * vocab.length)];
  return Array.from({ length: n }, (_, i) => ({
    id: `d${i}`,
    text: Array.from({ length: Math.floor(rand() * 30) }, word).join(" "),
  }));
}

Deno.test("Bm25Index.write merges segments into the files a one-shot build saves", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 0, max: 2 }),
        async (seed, n, segmentPostings, batchChars, analysisWorkers) => {
          const docs = collection(seed, n);
          const built = Bm25Index.build(docs, { k1: 1.1, b: 0.6 });
          await built.save(`${dir}/one`);
          async function* stream() {
            yield* docs;
          }
          const manifest = await Bm25Index.write(stream(), `${dir}/merged`, {
            k1: 1.1,
            b: 0.6,
            segmentPostings,
            batchChars, // in workers and here once the input passes one batch
            analysisWorkers,
          });
          assert.deepEqual(manifest, built.manifest());
          assert.deepEqual(await files(`${dir}/merged`), await files(`${dir}/one`));
        },
      ),
      { numRuns: 10 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a loaded compressed index ranks exactly as the in-memory one, k1/b changed or not", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const docs = collection(11, 12_000);
    const built = Bm25Index.build(docs);
    const m = await Bm25Index.write(docs, `${dir}/idx`, { segmentPostings: 20_000 });
    assert.ok(m.blocks > 100, `lists of many blocks (${m.blocks} skip entries)`);
    assert.ok(
      m.postingBytes < m.postings * 2,
      `${m.postingBytes} bytes for ${m.postings} postings`,
    );
    const loaded = await Bm25Index.load(`${dir}/idx`);
    const rand = prng(5);
    for (let q = 0; q < 30; q++) {
      const query = Array.from(
        { length: 1 + Math.floor(rand() * 60) },
        () => `w${Math.floor(rand() ** 2 * 500)}x`,
      ).join(" ");
      for (const opts of [{}, { k1: 1.5, b: 1 }, { exactLengths: true }]) {
        for (const k of [1, 10, 100]) {
          assert.deepEqual(loaded.search(query, k, opts), built.search(query, k, opts));
        }
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Bm25Index.write refuses repeated ids and leaves the target as it was", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Bm25Index.write([{ id: "a", text: "old storm" }], `${dir}/idx`);
    await assert.rejects(
      Bm25Index.write(
        [{ id: "a", text: "x" }, { id: "b", text: "y" }, { id: "a", text: "z" }],
        `${dir}/idx`,
      ),
      /document number 3: id "a" is already document number 1/,
    );
    // Found while a worker analyzes the earlier batches: it is stopped, nothing is written.
    const many = Array.from({ length: 50 }, (_, i) => ({ id: `d${i % 40}`, text: `flood ${i}` }));
    await assert.rejects(
      Bm25Index.write(many, `${dir}/idx`, { batchChars: 16 }),
      /document number 41: id "d0" is already document number 1/,
    );
    const index = await Bm25Index.load(`${dir}/idx`);
    assert.deepEqual(index.search("storm", 5).map((h) => h.docId), ["a"]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["idx"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an index of format version 1 is refused with the command that rebuilds it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // The layout of version 1: uncompressed arrays.
    await Deno.mkdir(`${dir}/old`);
    await Deno.writeTextFile(`${dir}/old/docids.txt`, "d1");
    await Deno.writeTextFile(`${dir}/old/terms.txt`, "storm");
    await Deno.writeFile(`${dir}/old/postings.u32`, new Uint8Array(4));
    await Deno.writeTextFile(
      `${dir}/old/manifest.json`,
      JSON.stringify({ format: "crux-bm25", version: 1, documents: 1, terms: 1, postings: 1 }),
    );
    await assert.rejects(
      Bm25Index.load(`${dir}/old`),
      (e: Error) => {
        assert.equal(
          e.message,
          `Cannot load BM25 index "${dir}/old": built by an older version (${dir}/old/manifest.json: ` +
            `format version 1; this version reads 2); rebuild it with ` +
            `\`crux index --passages FILE.jsonl --out ${dir}/old\``,
        );
        return true;
      },
    );
    // crux index may replace it in place.
    await Bm25Index.write([{ id: "d1", text: "storm" }], `${dir}/old`);
    assert.equal((await Bm25Index.load(`${dir}/old`)).size, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Bm25Index.buildAsync saves the files build saves, with any number of workers", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 800 }),
        fc.integer({ min: 1, max: 8000 }),
        fc.integer({ min: 0, max: 2 }),
        async (seed, n, batchChars, analysisWorkers) => {
          const docs = collection(seed, n);
          await Bm25Index.build(docs, { b: 0.7 }).save(`${dir}/one`);
          const progress: number[] = [];
          const index = await Bm25Index.buildAsync(docs, {
            b: 0.7,
            batchChars,
            analysisWorkers,
            onProgress: (done, total) => {
              assert.equal(total, n);
              progress.push(done);
            },
          });
          assert.equal(progress.at(-1), n);
          await index.save(`${dir}/async`);
          assert.deepEqual(await files(`${dir}/async`), await files(`${dir}/one`));
        },
      ),
      { numRuns: 8 },
    );
    await assert.rejects(
      Bm25Index.buildAsync([{ id: "a", text: "x" }, { id: "a", text: "y" }], { batchChars: 1 }),
      /document number 2: id "a" is already document number 1/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a document whose text is not a string is refused by number and id, by every build", async () => {
  const docs = [
    { id: "a", text: "storm coast" },
    { id: "b", text: undefined as unknown as string },
    { id: "c", text: "flood" },
  ];
  const message = /Cannot index document number 2 \(id "b"\): its text is undefined, not a string/;
  assert.throws(() => Bm25Index.build(docs), message);
  await assert.rejects(Bm25Index.buildAsync(docs), message);
  await assert.rejects(Bm25Index.buildAsync(docs, { batchChars: 1, analysisWorkers: 1 }), message);
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(Bm25Index.write(docs, `${dir}/idx`, { batchChars: 1 }), message);
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    const nulls = [{ id: "x", text: null as unknown as string }];
    await assert.rejects(
      Bm25Index.write(nulls, `${dir}/idx`),
      /number 1 \(id "x"\): its text is null/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
