/**
 * Kendall's tau-b in O(n log n) (Knight, 1966): sort by x, count the
 * inversions of y with a merge sort, correct for ties. Same value as the
 * metrics area's O(n²) `kendallTau` (private; used for large samples).
 */
export function kendallFast(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || y[a] - y[b]);
  const pairs = (t: number) => (t * (t - 1)) / 2;
  let tiedX = 0;
  let tiedXY = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && x[order[j]] === x[order[i]]) j++;
    tiedX += pairs(j - i);
    for (let k = i; k < j;) {
      let m = k + 1;
      while (m < j && y[order[m]] === y[order[k]]) m++;
      tiedXY += pairs(m - k);
      k = m;
    }
    i = j;
  }
  let ys = Float64Array.from(order, (i) => y[i]);
  let buf = new Float64Array(n);
  let swaps = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let a = lo;
      let b = mid;
      let k = lo;
      while (a < mid && b < hi) {
        if (ys[a] <= ys[b]) buf[k++] = ys[a++];
        else {
          buf[k++] = ys[b++];
          swaps += mid - a;
        }
      }
      while (a < mid) buf[k++] = ys[a++];
      while (b < hi) buf[k++] = ys[b++];
    }
    [ys, buf] = [buf, ys];
  }
  let tiedY = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && ys[j] === ys[i]) j++;
    tiedY += pairs(j - i);
    i = j;
  }
  const total = pairs(n);
  const denom = Math.sqrt((total - tiedX) * (total - tiedY));
  return denom === 0 ? NaN : (total - tiedX - tiedY + tiedXY - 2 * swaps) / denom;
}
