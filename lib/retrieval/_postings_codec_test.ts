import assert from "node:assert/strict";
import fc from "fast-check";
import { U32Buffer } from "./_growable.ts";
import { BLOCK, ByteSink, decodePostings, encodePostings } from "./_postings_codec.ts";

Deno.test("variable-byte postings: hand-checked bytes of a short list", () => {
  // Docs 0, 1, 200 with tf 1, 3, 1: values 0*2+1, 0*2+0 then tf-2 = 1, 198*2+1 = 397.
  const sink = new ByteSink(4);
  const blocks = new U32Buffer(4);
  const lengths = new Uint32Array(201).fill(5);
  const n = encodePostings(
    Uint32Array.of(0, 1, 200),
    Uint16Array.of(1, 3, 1),
    0,
    3,
    lengths,
    sink,
    blocks,
  );
  assert.equal(n, 5);
  assert.deepEqual([...sink.bytes()], [1, 0, 1, 397 % 128 | 128, 3]);
  assert.equal(blocks.length, 0); // one block: no skip entry
  const docs = new Uint32Array(3);
  const tfs = new Uint32Array(3);
  assert.equal(decodePostings(sink.data, 0, 5, 3, docs, tfs, 0), 5);
  assert.deepEqual([...docs], [0, 1, 200]);
  assert.deepEqual([...tfs], [1, 3, 1]);
  // Cut short: reported, not misread.
  assert.equal(decodePostings(sink.data, 0, 4, 3, docs, tfs, 0), -1);
});

Deno.test("variable-byte postings round-trip, with one skip entry per block of 128", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 31 }), { minLength: 1, maxLength: 700 }),
      fc.array(fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 2 ** 32 - 1 })), {
        minLength: 700,
        maxLength: 700,
      }),
      (docList, tfList) => {
        const docs = Uint32Array.from(docList.sort((a, b) => a - b));
        const tfs = Uint32Array.from(tfList.slice(0, docs.length));
        const lengths = { length: 0 } as unknown as Uint32Array; // impacts use lengths[d]
        const lens = new Map(docList.map((d) => [d, (d * 7919) % 1000]));
        const lengthsProxy = new Proxy(lengths, { get: (_, k) => lens.get(Number(k)) });
        const sink = new ByteSink(16);
        sink.varint(300); // something before the list: offsets are relative to its start
        const blocks = new U32Buffer(4);
        const n = encodePostings(docs, tfs, 0, docs.length, lengthsProxy, sink, blocks);
        assert.equal(sink.length, 2 + n);
        const outDocs = new Uint32Array(docs.length);
        const outTfs = new Uint32Array(docs.length);
        assert.equal(
          decodePostings(sink.data, 2, sink.length, docs.length, outDocs, outTfs, 0),
          sink.length,
        );
        assert.deepEqual(outDocs, docs);
        assert.deepEqual(outTfs, tfs);
        const nBlocks = docs.length > BLOCK ? Math.ceil(docs.length / BLOCK) : 0;
        assert.equal(blocks.length, nBlocks * 4);
        let begin = 2;
        for (let b = 0; b < nBlocks; b++) {
          const from = b * BLOCK;
          const to = Math.min(docs.length, from + BLOCK);
          const [last, byteEnd, maxTf, minLen] = blocks.data.subarray(4 * b, 4 * b + 4);
          assert.equal(last, docs[to - 1]);
          assert.equal(maxTf, Math.max(...tfs.subarray(from, to)));
          assert.equal(minLen, Math.min(...[...docs.subarray(from, to)].map((d) => lens.get(d)!)));
          // Each block decodes on its own from its byte range, gaps from the previous last doc.
          const part = new Uint32Array(to - from);
          const partTfs = new Uint32Array(to - from);
          assert.equal(
            decodePostings(sink.data, begin, 2 + byteEnd, to - from, part, partTfs, 0),
            2 + byteEnd,
          );
          const base = b === 0 ? 0 : docs[from - 1] + 1;
          assert.deepEqual(part.map((d) => d + base), docs.subarray(from, to));
          begin = 2 + byteEnd;
        }
      },
    ),
    { numRuns: 200 },
  );
});
