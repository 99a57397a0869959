// Close names for error messages: edit distance between a typed name and the known ones.

/** Levenshtein distance between two strings (case-insensitive). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = cur;
  }
  return prev[t.length];
}

/** Up to three candidates closest to `name` (distance at most a third of its length, min 2). */
export function closeNames(name: string, candidates: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return candidates
    .map((c) => ({ c, d: editDistance(name, c) }))
    .filter((x) => x.d <= limit || x.c.toLowerCase() === name.toLowerCase())
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : 1))
    .slice(0, 3)
    .map((x) => x.c);
}
