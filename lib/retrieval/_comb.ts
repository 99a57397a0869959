/** CombSUM / CombMNZ core. */
import type { RunRow } from "../types/records.ts";
import { byTopic, normalize, type ScoreNormalization, toRows } from "./_fuse.ts";

/** Options of `combSum` and `combMnz`. */
export interface CombOptions {
  /** Per run and topic score normalisation before summing (default `"minmax"`). */
  normalization?: ScoreNormalization;
  /** Only the top `depth` documents of each run and topic count (default all). */
  depth?: number;
  /** Name of the fused run (default `"combsum"` / `"combmnz"`). */
  run?: string;
}

export function comb(
  runs: readonly (readonly RunRow[])[],
  mnz: boolean,
  opts: CombOptions,
): RunRow[] {
  const how = opts.normalization ?? "minmax";
  const depth = opts.depth ?? Infinity;
  const sums = new Map<string, Map<string, number>>();
  const hits = new Map<string, Map<string, number>>();
  for (const run of runs) {
    for (const [topic, all] of byTopic(run)) {
      const rows = all.slice(0, depth);
      const norm = normalize(rows.map((r) => r.score), how);
      let s = sums.get(topic);
      let h = hits.get(topic);
      if (!s) sums.set(topic, s = new Map());
      if (!h) hits.set(topic, h = new Map());
      rows.forEach((row, i) => {
        s!.set(row.docId, (s!.get(row.docId) ?? 0) + norm[i]);
        h!.set(row.docId, (h!.get(row.docId) ?? 0) + 1);
      });
    }
  }
  if (mnz) {
    for (const [topic, s] of sums) {
      for (const [doc, v] of s) s.set(doc, v * hits.get(topic)!.get(doc)!);
    }
  }
  return toRows(sums, opts.run ?? (mnz ? "combmnz" : "combsum"));
}
