import assert from "node:assert/strict";
import { asciiEnd, decodeUtf8, firstInvalidUtf8 } from "./_utf8.ts";
import { InputError } from "./input_error.ts";

const enc = new TextEncoder();

Deno.test("asciiEnd finds the first byte >= 0x80 at every alignment and length", () => {
  const buffer = new Uint8Array(64).fill(0x61);
  for (let start = 0; start < 8; start++) {
    for (let at = start; at < 40; at++) {
      const bytes = buffer.subarray(start, 40);
      bytes[at - start] = 0xc3;
      assert.equal(asciiEnd(bytes), at - start);
      assert.equal(asciiEnd(bytes, at - start + 1), bytes.length);
      bytes[at - start] = 0x61;
    }
    assert.equal(asciiEnd(buffer.subarray(start, 40)), 40 - start);
  }
  assert.equal(asciiEnd(new Uint8Array(0)), 0);
});

Deno.test("firstInvalidUtf8 skips ASCII runs and still finds the bad byte", () => {
  const good = enc.encode("topic one Q0 d1 1 2.5 run ".repeat(10) + "é ✓ 𝄞 end\n");
  assert.equal(firstInvalidUtf8(good), -1);
  const bad = new Uint8Array([...enc.encode("abcdefghij"), 0xc3, 0x28, 0x41]);
  assert.equal(firstInvalidUtf8(bad), 10);
  // A lone continuation byte after 13 ASCII bytes, and an overlong NUL.
  assert.equal(firstInvalidUtf8(new Uint8Array([...enc.encode("1234567890abc"), 0x80])), 13);
  assert.equal(firstInvalidUtf8(new Uint8Array([0x41, 0xc0, 0x80])), 1);
  // A surrogate encoded in UTF-8 (ED A0 80) is not valid.
  assert.equal(firstInvalidUtf8(new Uint8Array([0x41, 0x42, 0xed, 0xa0, 0x80])), 2);
});

Deno.test("decodeUtf8 keeps a real U+FFFD, drops a BOM and names the line of a bad byte", () => {
  assert.equal(decodeUtf8(enc.encode("a\uFFFDb\n"), "f.txt"), "a\uFFFDb\n");
  assert.equal(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]), "f.txt"), "A");
  const bytes = new Uint8Array([...enc.encode("q1 0 d1 1\nq1 0 d"), 0xff, ...enc.encode(" 1\n")]);
  assert.throws(() => decodeUtf8(bytes, "qrels.txt"), (error: unknown) => {
    assert.ok(error instanceof InputError);
    assert.match(error.message, /qrels\.txt/);
    assert.match(error.message, /2/);
    assert.match(error.message, /0xff at column 7/);
    return true;
  });
});
