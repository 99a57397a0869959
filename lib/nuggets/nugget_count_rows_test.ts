import assert from "node:assert/strict";
import { nuggetCountRows } from "./nugget_count_rows.ts";

Deno.test("nuggetCountRows: per-topic counts and totals; a topic with a failed window has no nugget count", () => {
  const topic = (topicId: string, n: number[]) => {
    const [passages, windows, failedWindows, nuggets, vital, okay, failed, kept] = n;
    return { topicId, passages, windows, failedWindows, nuggets, vital, okay, failed, kept };
  };
  const rows = nuggetCountRows([
    topic("t2", [25, 3, 1, 9, 4, 5, 0, 9]),
    topic("t1", [18, 2, 0, 12, 3, 8, 1, 10]),
    topic("t3", [0, 0, 0, 6, 2, 4, 0, 6]),
  ], "created:m");
  const of = (topicId: string) =>
    Object.fromEntries(rows.filter((r) => r.topicId === topicId).map((r) => [r.measure, r.value]));
  assert.deepEqual(of("t1"), {
    nugget_passages: 18,
    nugget_windows: 2,
    nugget_windows_failed: 0,
    nugget_created: 12,
    nugget_vital: 3,
    nugget_okay: 8,
    nugget_importance_failed: 1,
    nugget_kept: 10,
  });
  // t2's list missed a window: its passages and windows are known, its nuggets are not.
  assert.deepEqual(of("t2"), { nugget_passages: 25, nugget_windows: 3, nugget_windows_failed: 1 });
  // Totals: passages over t1-t3 (18 + 25 + 0), nuggets over t1 and t3 only (12 + 6).
  assert.deepEqual(of("all"), {
    nugget_passages: 43,
    nugget_windows: 5,
    nugget_windows_failed: 1,
    nugget_created: 18,
    nugget_vital: 5,
    nugget_okay: 12,
    nugget_importance_failed: 1,
    nugget_kept: 16,
  });
  const total = (measure: string) =>
    rows.find((r) => r.topicId === "all" && r.measure === measure)!;
  assert.deepEqual([total("nugget_passages").topics, total("nugget_passages").topicSet], [
    3,
    "judged(n=3)",
  ]);
  assert.deepEqual([total("nugget_kept").topics, total("nugget_kept").topicSet], [
    2,
    "judged(n=2)",
  ]);
  const t1 = rows.find((r) => r.topicId === "t1")!;
  assert.deepEqual(
    [t1.method, t1.run, t1.judge, t1.source, t1.topicSet, t1.topics],
    ["nuggets", "", "", "created:m", "topic(id=t1)", null],
  );
  // Rows are in topic order, totals last.
  assert.deepEqual([...new Set(rows.map((r) => r.topicId))], ["t1", "t2", "t3", "all"]);
});
