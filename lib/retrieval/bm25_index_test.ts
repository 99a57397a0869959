import assert from "node:assert/strict";
import { Bm25Index } from "./bm25_index.ts";
import { seededRandom as prng } from "@lib/metrics/mod.ts";

const close = (a: number, b: number, eps = 1e-6) =>
  assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

// d3 has only stop words: it is not counted in N (Lucene's docCount), N = 2, avgdl = 6/2.
const DOCS = [
  { id: "d1", text: "Storm hits the coast; storms!" },
  { id: "d2", text: "Coast guard" },
  { id: "d3", text: "The" },
];

Deno.test("Bm25Index scores by Lucene BM25 (k1=0.9, b=0.4) on a hand-checked case", () => {
  const index = Bm25Index.build(DOCS);
  const m = index.manifest();
  assert.equal(m.fieldDocCount, 2);
  assert.equal(m.sumTotalTermFreq, 6); // storm hit coast storm | coast guard
  // storm: df=1, idf=ln 2; d1 tf=2 dl=4: ln2 * 2/(2 + 0.9*(0.6 + 0.4*4/3))
  const storm = index.search("storm", 10);
  assert.equal(storm.length, 1);
  assert.equal(storm[0].docId, "d1");
  close(storm[0].score, Math.LN2 * 2 / (2 + 0.9 * (0.6 + 0.4 * 4 / 3)));
  // coast: df=2, idf=ln 1.2; d2 (dl=2) outranks d1 (dl=4).
  const coast = index.search("coasts", 10);
  assert.deepEqual(coast.map((h) => h.docId), ["d2", "d1"]);
  close(coast[0].score, Math.log(1.2) / (1 + 0.9 * (0.6 + 0.4 * 2 / 3)));
  close(coast[1].score, Math.log(1.2) / (1 + 0.9 * (0.6 + 0.4 * 4 / 3)));
  // Sum over terms; a repeated query term counts twice.
  const both = index.search("storm coast storm", 10);
  close(both[0].score, 2 * storm[0].score + coast[1].score);
});

Deno.test("Bm25Index takes k1 and b per search and breaks ties by insertion order", () => {
  const index = Bm25Index.build([
    { id: "z", text: "apple pie" },
    { id: "a", text: "apple pie" },
    { id: "m", text: "banana" },
  ]);
  assert.deepEqual(index.search("apple", 10).map((h) => h.docId), ["z", "a"]);
  // b = 0: no length normalisation; tf=1 gives idf/(1+k1) * ... = idf * 1/(1+1.2)
  const hit = index.search("apple", 1, { k1: 1.2, b: 0 })[0];
  close(hit.score, Math.log(1 + 1.5 / 2.5) / 2.2);
  assert.deepEqual(index.search("cherry", 10), []);
  assert.deepEqual(index.search("apple", 0), []);
  assert.throws(() => index.search("apple", -1), RangeError);
  assert.throws(() => index.search("apple", 5, { b: 2 }), /k1=0.9, b=2/);
});

Deno.test("Bm25Index uses Lucene's lossy lengths unless exactLengths is set", () => {
  // Length 110 is stored as 104 by Lucene's one-byte norm.
  const long = Array.from({ length: 110 }, (_, i) => `w${i}`).join(" ");
  const docs = [{ id: "long", text: `${long} target` }, { id: "short", text: "target x" }];
  const lossy = Bm25Index.build(docs).search("target", 2);
  const exact = Bm25Index.build(docs, { exactLengths: true }).search("target", 2);
  const idf = Math.log(1.2);
  const avgdl = (111 + 2) / 2;
  close(lossy[1].score, idf / (1 + 0.9 * (0.6 + 0.4 * 104 / avgdl)));
  close(exact[1].score, idf / (1 + 0.9 * (0.6 + 0.4 * 111 / avgdl)));
  assert.ok(lossy[1].score > exact[1].score);
});

Deno.test("Bm25Index pruned top-k equals exhaustive ranking on a random collection", () => {
  const rand = prng(7);
  const word = () => `w${Math.floor(rand() ** 3 * 400)}`;
  const docs = Array.from({ length: 3000 }, (_, i) => ({
    id: `d${i}`,
    text: Array.from({ length: 20 + Math.floor(rand() * 60) }, word).join(" "),
  }));
  const index = Bm25Index.build(docs);
  for (let q = 0; q < 30; q++) {
    const query = Array.from({ length: 5 + Math.floor(rand() * 40) }, word).join(" ");
    const all = index.search(query, docs.length);
    for (const k of [1, 10, 50]) assert.deepEqual(index.search(query, k), all.slice(0, k));
  }
});

Deno.test("Bm25Index rejects duplicate and multi-line ids", () => {
  assert.throws(
    () => Bm25Index.build([{ id: "x", text: "a" }, { id: "y", text: "b" }, { id: "x", text: "c" }]),
    /^Error: Cannot index document number 3: id "x" is already document number 1; give every document a unique id$/,
  );
  assert.throws(() => Bm25Index.build([{ id: "x\ny", text: "a" }]), /contains a line break/);
});

Deno.test("Bm25Index saves and loads identical results, and reports damaged files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const index = Bm25Index.build(DOCS, { k1: 1.2, b: 0.75 });
    await index.save(`${dir}/idx`);
    const loaded = await Bm25Index.load(`${dir}/idx`);
    assert.equal(loaded.k1, 1.2);
    assert.equal(loaded.b, 0.75);
    assert.deepEqual(loaded.manifest(), index.manifest());
    assert.deepEqual(loaded.search("storm coast", 5), index.search("storm coast", 5));
    // Saving again replaces the directory atomically (no temporary left behind).
    await index.save(`${dir}/idx`);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["idx"]);
    const bytes = index.manifest().postingBytes;
    await Deno.writeFile(`${dir}/idx/postings.bin`, new Uint8Array(3));
    await assert.rejects(
      Bm25Index.load(`${dir}/idx`),
      new RegExp(`postings\\.bin": expected ${bytes} bytes, found 3`),
    );
    await assert.rejects(Bm25Index.load(`${dir}/none`), /no such file; build one/);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/idx/manifest.json`));
    await Deno.writeTextFile(
      `${dir}/idx/manifest.json`,
      JSON.stringify({ ...manifest, version: 99 }),
    );
    await assert.rejects(
      Bm25Index.load(`${dir}/idx`),
      /built by a newer version \(.*format version 99; this version reads 2\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
