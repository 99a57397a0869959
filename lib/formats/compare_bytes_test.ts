import assert from "node:assert/strict";
import { compareBytes } from "./compare_bytes.ts";

/** Reference: compare the UTF-8 encodings byte by byte. */
function utf8Compare(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

Deno.test("compareBytes is UTF-8 byte order, unlike UTF-16 code-unit order", () => {
  const ids = ["t:b", "t:\u{1F600}", "t:\uFF71", "t:a", "t:é", "t", "t:\u{10000}", "t:\uE000"];
  const expected = [...ids].sort(utf8Compare);
  assert.deepEqual([...ids].sort(compareBytes), expected);
  assert.deepEqual(expected, [
    "t",
    "t:a",
    "t:b",
    "t:é",
    "t:\uE000",
    "t:\uFF71",
    "t:\u{10000}",
    "t:\u{1F600}",
  ]);
  assert.ok("\u{1F600}" < "\uFF71", "UTF-16 order differs here");
  assert.ok(compareBytes("\u{1F600}", "\uFF71") > 0);
  assert.equal(compareBytes("x", "x"), 0);
});
