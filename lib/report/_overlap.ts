/**
 * Private: series that coincide (equal values at 3 decimals on every shared key).
 *
 * @module
 */

/**
 * Groups of series equal on every key (e.g. topic) they share, at 3
 * decimals, sharing at least two keys; each group in order of appearance.
 */
export function coinciding(
  rows: readonly Record<string, unknown>[],
  series: string,
  key: string,
  value: string,
): string[][] {
  const bySeries = new Map<string, Map<string, string>>();
  for (const r of rows) {
    const s = String(r[series]);
    if (!bySeries.has(s)) bySeries.set(s, new Map());
    bySeries.get(s)!.set(String(r[key]), (r[value] as number).toFixed(3));
  }
  const names = [...bySeries.keys()];
  const groups: string[][] = [];
  const placed = new Set<string>();
  for (const a of names) {
    if (placed.has(a)) continue;
    const group = [a];
    for (const b of names) {
      if (b === a || placed.has(b)) continue;
      const va = bySeries.get(a)!;
      const vb = bySeries.get(b)!;
      const shared = [...va.keys()].filter((k) => vb.has(k));
      if (shared.length >= 2 && shared.every((k) => va.get(k) === vb.get(k))) group.push(b);
    }
    if (group.length > 1) {
      groups.push(group);
      group.forEach((s) => placed.add(s));
    }
  }
  return groups;
}
