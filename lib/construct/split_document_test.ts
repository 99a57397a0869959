import assert from "node:assert/strict";
import { splitDocument } from "./split_document.ts";

Deno.test("splitDocument keeps a document of at most maxWords words whole", () => {
  const text = Array.from({ length: 1024 }, (_, i) => `w${i}`).join(" ");
  assert.deepEqual(splitDocument(`  ${text}\n`), [text]);
});

Deno.test("splitDocument cuts a 1025-word document into 512 + 512 + 1 words", () => {
  const words = Array.from({ length: 1025 }, (_, i) => `w${i}`);
  const pieces = splitDocument(words.join("\n"));
  assert.equal(pieces.length, 3);
  assert.equal(pieces[0], words.slice(0, 512).join(" "));
  assert.equal(pieces[1], words.slice(512, 1024).join(" "));
  assert.equal(pieces[2], "w1024");
});

Deno.test("splitDocument honours custom thresholds and ignores empty text", () => {
  assert.deepEqual(splitDocument("a b c d e", { maxWords: 4, pieceWords: 2 }), ["a b", "c d", "e"]);
  assert.deepEqual(splitDocument(" \n\t "), []);
});

Deno.test("splitDocument rejects non-positive piece sizes", () => {
  assert.throws(
    () => splitDocument("a", { pieceWords: 0 }),
    /pieceWords must be a positive integer, got 0/,
  );
  assert.throws(() => splitDocument("a", { maxWords: 1.5 }), /maxWords must be a positive integer/);
});
