import assert from "node:assert/strict";
import fc from "fast-check";
import { validUtf8 } from "./valid_utf8.ts";

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const decodes = (bytes: Uint8Array) => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

Deno.test("validUtf8 agrees with a fatal decoder on any range of any bytes (property)", () => {
  // Bytes near UTF-8's edges (continuations, lead bytes, surrogates' and U+10FFFF's
  // encodings) make invalid and valid sequences both likely.
  const byte = fc.oneof(
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom(
      0x80,
      0xbf,
      0xc0,
      0xc1,
      0xc2,
      0xdf,
      0xe0,
      0xed,
      0xef,
      0xf0,
      0xf4,
      0xf5,
      0x9f,
      0xa0,
    ),
  );
  const text = fc.string({ unit: "grapheme", maxLength: 30 }).map((
    s,
  ) => [...new TextEncoder().encode(s)]);
  fc.assert(
    fc.property(
      fc.array(fc.oneof(byte.map((b) => [b]), text), { maxLength: 40 }).map((parts) =>
        new Uint8Array(parts.flat())
      ),
      fc.nat(),
      fc.nat(),
      fc.integer({ min: 0, max: 3 }),
      (bytes, a, b, shift) => {
        const from = bytes.length ? a % (bytes.length + 1) : 0;
        const to = from + (bytes.length - from ? b % (bytes.length - from + 1) : 0);
        // A view starting off a word boundary, as a chunk of a larger buffer does.
        const view = new Uint8Array(bytes.length + shift).subarray(shift);
        view.set(bytes);
        assert.equal(validUtf8(view, from, to), decodes(bytes.subarray(from, to)));
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("validUtf8 checks long ASCII runs word by word at any alignment", () => {
  const bytes = new TextEncoder().encode("a".repeat(100));
  for (let at = 0; at < 40; at++) {
    const bad = bytes.slice();
    bad[at + 30] = 0x80;
    assert.equal(validUtf8(bad, at), false, `bad byte at ${at + 30}, from ${at}`);
    assert.equal(validUtf8(bad, at, at + 30), true, `range ending before the bad byte, from ${at}`);
    assert.equal(validUtf8(bad, at + 31), true);
  }
});
