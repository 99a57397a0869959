import assert from "node:assert/strict";
import { chunkText } from "./chunk_text.ts";

const sentence = (n: number, w: string) =>
  [w.toUpperCase(), ...Array(n - 1).fill(w)].join(" ") + ".";

Deno.test("chunkText packs whole sentences into balanced chunks", () => {
  // 10 sentences of 25 words = 250 words -> two chunks of 125 words (5 sentences each).
  const text = Array.from({ length: 10 }, (_, i) => sentence(25, `w${i}`)).join(" ");
  const chunks = chunkText(text);
  assert.equal(chunks.length, 2);
  assert.deepEqual(chunks.map((c) => c.split(/\s+/).length), [125, 125]);
  assert.ok(chunks[0].endsWith("w4."));
  assert.ok(chunks[1].startsWith("W5 "));
});

Deno.test("chunkText cuts only a sentence longer than the maximum", () => {
  const text = `${sentence(10, "aa")} ${sentence(25, "bb")} ${sentence(4, "cc")}`;
  const chunks = chunkText(text, { minWords: 5, maxWords: 12 });
  assert.deepEqual(chunks.map((c) => c.split(/\s+/).length), [10, 9, 9, 11]);
  assert.equal(chunks[0], sentence(10, "aa"));
});

Deno.test("chunkText merges a short tail and returns one chunk for short text", () => {
  assert.deepEqual(chunkText("Short text. Very short."), ["Short text. Very short."]);
  const text = `${sentence(100, "aa")} ${sentence(100, "bb")} ${sentence(10, "cc")}`;
  assert.deepEqual(chunkText(text).map((c) => c.split(/\s+/).length), [100, 110]);
  assert.deepEqual(chunkText(" \n "), []);
});

Deno.test("chunkText rejects invalid limits", () => {
  assert.throws(() => chunkText("x", { minWords: 50, maxWords: 10 }), RangeError);
  assert.throws(() => chunkText("x", { minWords: 0 }), /minWords=0/);
});
