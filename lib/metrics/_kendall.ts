/**
 * The two algorithms behind `kendallTau`: counting every pair (O(n²), fastest
 * for short samples) and Knight's merge-sort count (O(n log n)). Both return
 * tau-b exactly, ties included, from the same integer pair counts.
 */

/** Number of pairs among `t` items. */
function pairs(t: number): number {
  return (t * (t - 1)) / 2;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` (no subtraction: Infinity is fine). */
function order(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * tau-b = (C - D) / sqrt((C + D + Tx) (C + D + Ty)) by looking at every pair:
 * C/D concordant and discordant pairs, Tx/Ty pairs tied only in x / only in y.
 */
export function kendallPairs(x: readonly number[], y: readonly number[]): number {
  let concordant = 0;
  let discordant = 0;
  let onlyX = 0;
  let onlyY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = order(x[i], x[j]);
      const dy = order(y[i], y[j]);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) onlyX++;
      else if (dy === 0) onlyY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + onlyX) * (concordant + discordant + onlyY));
  return denom === 0 ? NaN : (concordant - discordant) / denom;
}

/**
 * The same tau-b in O(n log n) (Knight, 1966, "A computer method for
 * calculating Kendall's tau with ungrouped data"): sort by x then y, count the
 * pairs tied in x and in both, count the discordant pairs as the inversions of
 * y left by a bottom-up merge sort, then the pairs tied in y. With n0 = all
 * pairs, n1 / n2 tied in x / y and n3 tied in both, C + D = n0 - n1 - n2 + n3,
 * so C - D = n0 - n1 - n2 + n3 - 2D and the denominator is sqrt((n0 - n1)(n0 - n2)).
 */
export function kendallMerge(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const sorted = Array.from({ length: n }, (_, i) => i)
    .sort((a, b) => order(x[a], x[b]) || order(y[a], y[b]));
  let tiedX = 0;
  let tiedXY = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && x[sorted[j]] === x[sorted[i]]) j++;
    tiedX += pairs(j - i);
    for (let k = i; k < j;) {
      let m = k + 1;
      while (m < j && y[sorted[m]] === y[sorted[k]]) m++;
      tiedXY += pairs(m - k);
      k = m;
    }
    i = j;
  }
  let ys = Float64Array.from(sorted, (i) => y[i]);
  let buf = new Float64Array(n);
  let discordant = 0;
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
          discordant += mid - a;
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
  const denom = Math.sqrt((total - tiedY) * (total - tiedX));
  return denom === 0 ? NaN : (total - tiedX - tiedY + tiedXY - 2 * discordant) / denom;
}
