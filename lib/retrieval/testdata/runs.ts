/** Small hand-made runs for the fusion tests. */
import type { RunRow } from "../../types/records.ts";

const row = (run: string, topicId: string, docId: string, score: number): RunRow => ({
  run,
  topicId,
  docId,
  rank: 0,
  score,
});

/** Run "a": topic t only. */
export const RUN_A: RunRow[] = [
  row("a", "t", "d2", 2),
  row("a", "t", "d1", 3),
  row("a", "t", "d3", 1),
];
/** Run "b": topics t and u. */
export const RUN_B: RunRow[] = [
  row("b", "t", "d3", 10),
  row("b", "t", "d1", 5),
  row("b", "u", "d9", 1),
];
