import assert from "node:assert/strict";
import { keyPointCountRows } from "./key_point_count_rows.ts";

const point = (
  topicId: string,
  level: string,
  docId: string | null,
  spanStatus: string[] | null,
) => ({ topicId, level, docId, spanStatus, spans: (spanStatus ?? []).map((_, i) => `s${i}`) });

Deno.test("keyPointCountRows: counts per topic by hand, a failed extraction stores only its unusable answers, totals over the counted topics", () => {
  const rows = keyPointCountRows(
    [
      // t1: three originals from two documents; o2's span not found, o3 has none.
      point("t1", "original", "d1", ["exact", "normalized"]),
      point("t1", "original", "d1", ["missing"]),
      point("t1", "original", "d2", []),
      point("t1", "merged", null, null),
      point("t1", "merged", null, null),
      // t2: one passage's extraction failed, so its one original is not all there is.
      point("t2", "original", "d3", ["exact"]),
      point("t2", "merged", null, null),
      // t3: merging failed, the original kept as its merged point.
      point("t3", "original", "d4", ["exact"]),
      point("t3", "merged", null, null),
    ],
    [{ topicId: "t2", step: "extract", n: 1 }, { topicId: "t3", step: "merge", n: 1 }],
    "extracted:x",
  );
  const of = (topicId: string) =>
    Object.fromEntries(rows.filter((r) => r.topicId === topicId).map((r) => [r.measure, r.value]));
  assert.deepEqual(of("t1"), {
    kp_documents: 2,
    kp_original: 3,
    kp_spans_exact: 1,
    kp_spans_normalized: 1,
    kp_spans_not_found: 1,
    kp_flagged: 2,
    kp_merged: 2,
    kp_unusable: 0,
  });
  assert.deepEqual(of("t2"), { kp_unusable: 1 });
  assert.deepEqual(of("t3"), {
    kp_documents: 1,
    kp_original: 1,
    kp_spans_exact: 1,
    kp_spans_normalized: 0,
    kp_spans_not_found: 0,
    kp_flagged: 0,
    kp_merged: 1,
    kp_unusable: 1,
  });
  // Totals: t1 + t3 for the key point counts, all three topics for unusable answers.
  const totals = rows.filter((r) => r.topicId === "all").map((r) => [
    r.measure,
    r.value,
    r.topics,
    r.topicSet,
  ]);
  assert.deepEqual(totals, [
    ["kp_documents", 3, 2, "judged(n=2)"],
    ["kp_original", 4, 2, "judged(n=2)"],
    ["kp_spans_exact", 2, 2, "judged(n=2)"],
    ["kp_spans_normalized", 1, 2, "judged(n=2)"],
    ["kp_spans_not_found", 1, 2, "judged(n=2)"],
    ["kp_flagged", 2, 2, "judged(n=2)"],
    ["kp_merged", 3, 2, "judged(n=2)"],
    ["kp_unusable", 2, 3, "judged(n=3)"],
  ]);
  const t1 = rows.find((r) => r.topicId === "t1" && r.measure === "kp_merged")!;
  assert.deepEqual(
    [t1.method, t1.run, t1.judge, t1.source, t1.topicSet],
    ["keypoints", "", "", "extracted:x", "topic(id=t1)"],
  );
});
