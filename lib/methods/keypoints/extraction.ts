// The key point method's extraction tables: key points per topic with span checks, the merge map.

import { naturalCompare, table } from "@lib/report/mod.ts";
import {
  countKeyPointProblems,
  readKeyPointsOfSource,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import type { Analysis } from "@lib/analysis/mod.ts";

const cut = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n - 1)}\u2026` : s);

/** `keypoint_extraction` (per topic, with span checks) and `keypoint_merge_map`. */
export async function extractionAnalyses(
  ws: WorkspaceLike,
  opts: { source: string; note: string; mergeRows: number },
): Promise<Analysis[]> {
  const points = await readKeyPointsOfSource(ws, opts.source);
  if (!points.length) return [];
  const problems = await countKeyPointProblems(ws);
  const topics = [...new Set(points.map((p) => p.topicId))].sort(naturalCompare);
  const missing = (p: (typeof points)[number]) =>
    (p.spanStatus ?? []).filter((s) => s === "missing").length;
  const flaggedOf = (p: (typeof points)[number]) => missing(p) > 0 || !p.spans.length;
  const perTopic = topics.map((t) => {
    const o = points.filter((p) => p.topicId === t && p.level === "original");
    const status = o.flatMap((p) => p.spanStatus ?? []);
    return {
      topic: t,
      documents: new Set(o.map((p) => p.docId)).size,
      original: o.length,
      exact: status.filter((s) => s === "exact").length,
      normalized: status.filter((s) => s === "normalized").length,
      notFound: status.filter((s) => s === "missing").length,
      flagged: o.filter(flaggedOf).length,
      merged: points.filter((p) => p.topicId === t && p.level === "merged").length,
      unusable: problems.find((x) => x.topicId === t)?.n ?? 0,
    };
  });
  const cols = [
    "documents",
    "original",
    "exact",
    "normalized",
    "notFound",
    "flagged",
    "merged",
    "unusable",
  ] as const;
  const total = Object.fromEntries(cols.map((c) => [c, perTopic.reduce((s, r) => s + r[c], 0)]));
  const extraction: Analysis = {
    name: "keypoint_extraction",
    data: perTopic,
    table: table({
      caption: "Key point extraction and span checks per topic",
      label: "tab:keypoint-extraction",
      rowHeader: "Topic",
      columns: [
        { key: "documents", label: "Documents", decimals: 0 },
        { key: "original", label: "Key points", decimals: 0 },
        { key: "exact", label: "Exact", group: "Spans", decimals: 0 },
        { key: "normalized", label: "Normalised", group: "Spans", decimals: 0 },
        { key: "notFound", label: "Not found", group: "Spans", decimals: 0 },
        { key: "flagged", label: "Flagged", decimals: 0 },
        { key: "merged", label: "Merged", decimals: 0 },
        { key: "unusable", label: "Unusable answers", decimals: 0 },
      ],
      rows: [
        ...perTopic.map((r) => ({
          label: r.topic,
          values: Object.fromEntries(cols.map((c) => [c, r[c]])),
        })),
        { label: "all", group: "reference", values: total },
      ],
      notes: [
        opts.note,
        "spans checked against their document: exact, then white space and quotes normalised; a key point with a span not found is kept and flagged",
      ],
    }),
  };
  const originals = new Map(
    points.filter((p) => p.level === "original").map((
      p,
    ) => [`${p.topicId}\u0000${p.keypointId}`, p]),
  );
  const merged = points.filter((p) => p.level === "merged")
    .sort((a, b) =>
      (b.mergedFrom.length > 1 ? 1 : 0) - (a.mergedFrom.length > 1 ? 1 : 0) ||
      naturalCompare(a.topicId, b.topicId) || naturalCompare(a.keypointId, b.keypointId)
    );
  const mapRows = merged.map((m) => ({
    topic: m.topicId,
    id: m.keypointId,
    text: m.text,
    originals: m.mergedFrom.map((o) => {
      const p = originals.get(`${m.topicId}\u0000${o}`);
      return p ? `${o} (${p.docId ?? "?"}${flaggedOf(p) ? ", flagged" : ""})` : o;
    }),
  }));
  const shown = mapRows.slice(0, opts.mergeRows);
  const mergeMap: Analysis = {
    name: "keypoint_merge_map",
    data: mapRows,
    table: table({
      caption: "Merge map: merged key points and their originals",
      label: "tab:keypoint-merge-map",
      rowHeader: "Key point",
      columns: [
        { key: "text", label: "Merged key point" },
        { key: "originals", label: "Originals (document)" },
      ],
      rows: shown.map((r) => ({
        label: `${r.topic}/${r.id}`,
        values: { text: cut(r.text), originals: r.originals.join("; ") },
      })),
      notes: [
        opts.note,
        `every original key point is in exactly one merged point${
          mapRows.length > shown.length
            ? `; ${shown.length} of ${mapRows.length} rows shown (merges first)`
            : ""
        }`,
      ],
    }),
  };
  return [extraction, mergeMap];
}
