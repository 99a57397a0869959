// The key point method's extraction tables: the stored counts per topic with span checks, the merge map.

import { naturalCompare, table } from "@lib/report/mod.ts";
import { readKeyPointsOfSource, readMeasures, type WorkspaceLike } from "@lib/store/mod.ts";
import { KEYPOINT_COUNT_MEASURES, type KeyPointCountMeasure } from "@lib/keypoints/mod.ts";
import { type Analysis, type CellKey, tableCells } from "@lib/analysis/mod.ts";

const cut = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n - 1)}\u2026` : s);

/** The table's columns and the stored count measure each shows. */
const COLUMNS: readonly { key: string; measure: KeyPointCountMeasure }[] = [
  { key: "documents", measure: "kp_documents" },
  { key: "original", measure: "kp_original" },
  { key: "exact", measure: "kp_spans_exact" },
  { key: "normalized", measure: "kp_spans_normalized" },
  { key: "notFound", measure: "kp_spans_not_found" },
  { key: "flagged", measure: "kp_flagged" },
  { key: "merged", measure: "kp_merged" },
  { key: "unusable", measure: "kp_unusable" },
];

/**
 * `keypoint_extraction` (the stored counts per topic, with span checks, and
 * their stored totals; absent when none are stored) and `keypoint_merge_map`.
 */
export async function extractionAnalyses(
  ws: WorkspaceLike,
  opts: { source: string; note: string; mergeRows: number },
): Promise<Analysis[]> {
  const points = await readKeyPointsOfSource(ws, opts.source);
  const counts = await readMeasures(ws, {
    method: "keypoints",
    run: "",
    judge: "",
    source: opts.source,
    measure: KEYPOINT_COUNT_MEASURES,
    hasValue: true,
  });
  const out: Analysis[] = [];
  const keyOf = (topicId: string, measure: string): CellKey => ({
    run: "",
    source: opts.source,
    judge: "",
    measure,
    topicId,
  });
  const value = (topicId: string, measure: string) =>
    counts.find((r) => r.topicId === topicId && r.measure === measure)?.value ?? null;
  const topics = [...new Set(counts.map((r) => r.topicId))].filter((t) => t !== "all")
    .sort(naturalCompare);
  // A topic with an unusable answer but no key point count: its extraction failed.
  const failed = topics.filter((t) => value(t, "kp_original") === null);
  if (topics.length) {
    const perTopic = topics.map((t) => ({
      topic: t,
      ...Object.fromEntries(COLUMNS.map((c) => [c.key, value(t, c.measure)])),
    }));
    const total = Object.fromEntries(COLUMNS.map((c) => [c.key, value("all", c.measure)]));
    const t = table({
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
        ...perTopic.map(({ topic, ...values }) => ({ label: topic, values })),
        { label: "all", group: "reference", values: total },
      ],
      notes: [
        opts.note,
        "spans checked against their document: exact, then white space and quotes normalised; a key point with a span not found is kept and flagged",
        ...(failed.length
          ? [
            `extraction failed for a passage of ${failed.join(", ")}: key points not counted; ` +
            "totals over the other topics",
          ]
          : []),
      ],
    });
    const measureOf = new Map(COLUMNS.map((c) => [c.key, c.measure]));
    out.push({
      name: "keypoint_extraction",
      data: perTopic,
      table: t,
      // Every count is a stored row of the measure stage.
      cells: tableCells(t, (row, column) => {
        const topicId = row.label === "all" ? "all" : row.label;
        return {
          key: keyOf(topicId, measureOf.get(column)!),
          reason: topicId === "all"
            ? "no topic with a known count"
            : failed.includes(topicId)
            ? "extraction failed for a passage of this topic: its key points are incomplete, not counted"
            : `no ${measureOf.get(column)} stored`,
        };
      }),
    });
  }
  if (!points.length) return out;
  const flaggedOf = (p: (typeof points)[number]) =>
    (p.spanStatus ?? []).includes("missing") || !p.spans.length;
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
  const mapTable = table({
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
  });
  const mergeMap: Analysis = {
    name: "keypoint_merge_map",
    data: mapRows,
    table: mapTable,
    // The map shows text; a key point's text can read as a number.
    cells: tableCells(mapTable, () => ({ derived: "the text of a stored key point" })),
  };
  return [...out, mergeMap];
}
