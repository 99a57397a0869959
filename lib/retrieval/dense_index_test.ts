import assert from "node:assert/strict";
import { DenseIndex } from "./dense_index.ts";
import { tfidfEmbedder } from "./tfidf_embedder.ts";

Deno.test("DenseIndex ranks by cosine and validates shapes", () => {
  const index = DenseIndex.build(["x", "y", "z"], [
    Float32Array.of(2, 0),
    Float32Array.of(0, 1),
    Float32Array.of(1, 1),
  ]);
  const hits = index.search(Float32Array.of(1, 0.1), 3);
  assert.deepEqual(hits.map((h) => h.docId), ["x", "z", "y"]);
  assert.ok(Math.abs(hits[1].score - 1.1 / Math.sqrt(2 * 1.01)) < 1e-6);
  assert.equal(index.search(Float32Array.of(1, 0), 1).length, 1);
  assert.throws(() => index.search(Float32Array.of(1), 1), /length 1, expected 2/);
  assert.throws(() => DenseIndex.build(["a"], []), /1 ids and 0 vectors/);
  assert.throws(
    () => DenseIndex.build(["a", "b"], [Float32Array.of(1), Float32Array.of(1, 2)]),
    /"b": length 2, expected 1/,
  );
});

Deno.test("tfidfEmbedder gives deterministic unit vectors that find lexical matches", async () => {
  const docs = [
    { id: "a", text: "Hurricane damage along the Florida coast" },
    { id: "b", text: "Election results in Ohio" },
    { id: "c", text: "Stock markets fell sharply" },
  ];
  const embedder = tfidfEmbedder(docs.map((d) => d.text), { dimensions: 64 });
  assert.equal(embedder.name, "tfidf-hash-64");
  const [v] = await embedder.embed(["hurricane damage"]);
  assert.equal(v.length, 64);
  assert.ok(Math.abs(v.reduce((s, x) => s + x * x, 0) - 1) < 1e-5);
  const index = await DenseIndex.fromEmbedder(docs, embedder, { batchSize: 2 });
  assert.equal(index.search(v, 1)[0].docId, "a");
  assert.deepEqual(await embedder.embed(["hurricane damage"]), [v]);
  assert.throws(() => tfidfEmbedder([], { dimensions: 0 }), /0 dimensions/);
});
