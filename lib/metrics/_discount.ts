/** The DCG discount's logarithms, computed once per rank and shared. */

let table = new Float64Array(0);

/**
 * `log2(i + 2)` for every 0-based rank i < n (and possibly more): dividing a
 * gain by entry i is the discount 1/log2(rank + 1) of rank i + 1.
 */
export function logRank(n: number): Float64Array {
  if (table.length < n) {
    const next = new Float64Array(Math.max(n, 2 * table.length, 256));
    next.set(table);
    for (let i = table.length; i < next.length; i++) next[i] = Math.log2(i + 2);
    table = next;
  }
  return table;
}
