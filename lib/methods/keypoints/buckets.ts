// Length buckets of the key point method's tables (input and response tokens).

/** Bucket label of a length given increasing edges: `<e1`, `e1-e2`, ..., `>=en`. */
export function bucketOf(
  length: number,
  edges: readonly number[],
): { label: string; index: number } {
  const i = edges.findIndex((e) => length < e);
  if (i === 0) return { label: `<${edges[0]}`, index: 0 };
  if (i < 0) return { label: `>=${edges.at(-1)}`, index: edges.length };
  return { label: `${edges[i - 1]}-${edges[i]}`, index: i };
}

/** Mean value per (run, bucket), buckets in length order, with the number of responses. */
export function bucketMeans(
  rows: readonly { run: string; length: number; value: number }[],
  edges: readonly number[],
): { run: string; bucket: string; index: number; value: number; n: number }[] {
  const acc = new Map<
    string,
    { run: string; bucket: string; index: number; sum: number; n: number }
  >();
  for (const r of rows) {
    const b = bucketOf(r.length, edges);
    const key = `${r.run}\u0000${b.index}`;
    const a = acc.get(key) ?? { run: r.run, bucket: b.label, index: b.index, sum: 0, n: 0 };
    a.sum += r.value;
    a.n++;
    acc.set(key, a);
  }
  return [...acc.values()]
    .sort((a, b) => a.index - b.index)
    .map((a) => ({ run: a.run, bucket: a.bucket, index: a.index, value: a.sum / a.n, n: a.n }));
}
