// Agreement parts of an items x categories count table, shared by the kappa statistics.

/** Observed agreement per item and category totals of an items x categories count table. */
export function agreementParts(
  table: readonly (readonly number[])[],
  what: string,
): { observed: number; categoryShares: number[] } {
  if (table.length === 0) throw new RangeError(`Cannot compute ${what}: no items`);
  const k = table[0].length;
  const raters = table[0].reduce((s, v) => s + v, 0);
  if (raters < 2) {
    throw new RangeError(`Cannot compute ${what}: need at least 2 raters per item, got ${raters}`);
  }
  const totals = new Array<number>(k).fill(0);
  let observed = 0;
  table.forEach((row, i) => {
    const n = row.reduce((s, v) => s + v, 0);
    if (row.length !== k || n !== raters) {
      throw new RangeError(
        `Cannot compute ${what}: item ${i + 1} has ${row.length} categories and ${n} ratings; ` +
          `every item needs ${k} categories and ${raters} ratings`,
      );
    }
    let agree = 0;
    row.forEach((c, j) => {
      agree += c * (c - 1);
      totals[j] += c;
    });
    observed += agree / (raters * (raters - 1));
  });
  const all = raters * table.length;
  return { observed: observed / table.length, categoryShares: totals.map((t) => t / all) };
}
