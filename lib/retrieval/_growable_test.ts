import assert from "node:assert/strict";
import { U32Buffer } from "./_growable.ts";

Deno.test("U32Buffer doubles, stops at its soft limit, then doubles again past it", () => {
  const b = new U32Buffer(4);
  b.softLimit = 10;
  const capacities: number[] = [];
  for (let i = 0; i < 41; i++) {
    b.push(i);
    if (capacities.at(-1) !== b.data.length) capacities.push(b.data.length);
  }
  assert.deepEqual(capacities, [4, 8, 10, 20, 40, 80]);
  assert.deepEqual([...b.toArray()], Array.from({ length: 41 }, (_, i) => i));
});

Deno.test("U32Buffer without a soft limit keeps doubling", () => {
  const b = new U32Buffer(2);
  for (let i = 0; i < 9; i++) b.push(i * 3);
  assert.equal(b.data.length, 16);
  assert.deepEqual([...b.toArray()], [0, 3, 6, 9, 12, 15, 18, 21, 24]);
});
