/** Reading typed sub-questions from the workspace; private to `@lib/subq`. */
import { readSubqQuestions, type WorkspaceLike } from "@lib/store/mod.ts";
import type { SubquestionType } from "@lib/metrics/mod.ts";

/** A typed sub-question row. */
export interface SubqRow {
  topicId: string;
  ordinal: number;
  text: string;
  type: SubquestionType | null;
}

/** Sub-questions of a source by topic, in ordinal order. */
export async function subqByTopic(
  ws: WorkspaceLike,
  source: string,
): Promise<Map<string, SubqRow[]>> {
  const rows = await readSubqQuestions(ws, source) as SubqRow[];
  const out = new Map<string, SubqRow[]>();
  for (const r of rows) out.set(r.topicId, [...(out.get(r.topicId) ?? []), r]);
  return out;
}
