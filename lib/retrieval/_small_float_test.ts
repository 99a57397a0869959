import assert from "node:assert/strict";
import { byteToLength, lengthToByte } from "./_small_float.ts";

Deno.test("length bytes are exact below 24 and keep 4 significant bits above", () => {
  for (let i = 0; i < 24; i++) assert.equal(byteToLength(lengthToByte(i)), i);
  // Values from Lucene's SmallFloat.intToByte4/byte4ToInt.
  assert.equal(lengthToByte(24), 24);
  assert.equal(byteToLength(lengthToByte(25)), 25);
  assert.equal(lengthToByte(110), 58);
  assert.equal(byteToLength(58), 104);
  assert.equal(byteToLength(60), 120);
  assert.equal(byteToLength(lengthToByte(120)), 120);
  assert.equal(byteToLength(lengthToByte(2 ** 31 - 1)), 2013265944);
  assert.equal(lengthToByte(2 ** 31 - 1), 255);
  // Monotone and idempotent on decoded values.
  let prev = -1;
  for (let b = 0; b < 256; b++) {
    const len = byteToLength(b);
    assert.ok(len > prev);
    assert.equal(lengthToByte(len), b);
    prev = len;
  }
});
