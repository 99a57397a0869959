import assert from "node:assert/strict";
import { listwiseWindows } from "./listwise_windows.ts";

Deno.test("listwiseWindows slides from the bottom up and covers the top", () => {
  // N = 100, window 20, stride 10: ceil(80 / 10) + 1 = 9 windows.
  const w = listwiseWindows(100, 20, 10);
  assert.deepEqual(w, [
    [80, 100],
    [70, 90],
    [60, 80],
    [50, 70],
    [40, 60],
    [30, 50],
    [20, 40],
    [10, 30],
    [0, 20],
  ]);
  // N = 95: ceil(75 / 10) + 1 = 9 windows, the last one shorter and at the top.
  assert.deepEqual(listwiseWindows(95, 20, 10).slice(-2), [[5, 25], [0, 15]]);
  assert.deepEqual(listwiseWindows(20, 20, 10), [[0, 20]]);
  assert.deepEqual(listwiseWindows(7, 20, 10), [[0, 7]]);
  assert.deepEqual(listwiseWindows(0, 20, 10), []);
  for (const [n, count] of [[21, 2], [30, 2], [31, 3], [110, 10], [100, 9], [1000, 99]]) {
    assert.equal(listwiseWindows(n, 20, 10).length, count, `N = ${n}`);
    assert.equal(count, Math.ceil((n - 20) / 10) + 1);
  }
  assert.throws(() => listwiseWindows(10, 4, 5), /stride must be an integer from 1 to/);
  assert.throws(() => listwiseWindows(10, 0, 1), /window must be a positive integer/);
});
