/**
 * Workspace reads shared by the construction, generation and judging steps.
 * Columns are aliased to the camelCase record fields in SQL, so the rows are
 * records as declared in `@lib/types`.
 */
import type { Document, Passage, Qrel, Question, Rating, RunRow, Topic } from "@lib/types/mod.ts";
import { passageOrdinal } from "./passage_ordinal.ts";

/** The part of the store's `Workspace` the pipeline steps use. */
export interface WorkspaceLike {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  upsert(table: string, records: readonly object[]): Promise<unknown>;
  exec(sql: string, params?: unknown[]): Promise<unknown>;
}

const clean = <T extends object>(row: T): T =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined)) as T;

/** Topics, optionally restricted to some ids, in id order. */
export async function readTopics(ws: WorkspaceLike, only?: readonly string[]): Promise<Topic[]> {
  const rows = await ws.query<Topic>(
    `SELECT topic_id AS "topicId", request, title, summary, source FROM topics ORDER BY topic_id`,
  );
  const keep = only && only.length > 0 ? new Set(only) : undefined;
  return rows.filter((t) => !keep || keep.has(t.topicId)).map((t) =>
    clean({ ...t, request: t.request ?? "" })
  );
}

/** Documents grouped by topic, in document-index order. */
export async function readDocuments(ws: WorkspaceLike): Promise<Map<string, Document[]>> {
  const rows = await ws.query<Document>(
    `SELECT topic_id AS "topicId", doc_id AS "docId", doc_index AS "docIndex", text, title
     FROM documents ORDER BY topic_id, doc_index, doc_id`,
  );
  return group(rows.map(clean), (d) => d.topicId);
}

/** Passages grouped by topic, in passage order (`j` of the id). */
export async function readPassages(ws: WorkspaceLike): Promise<Map<string, Passage[]>> {
  const rows = await ws.query<Passage>(
    `SELECT passage_id AS "passageId", topic_id AS "topicId", doc_id AS "docId", text, tokens
     FROM passages ORDER BY topic_id`,
  );
  const byTopic = group(rows.map(clean), (p) => p.topicId);
  for (const list of byTopic.values()) {
    list.sort((a, b) => passageOrdinal(a.passageId) - passageOrdinal(b.passageId));
  }
  return byTopic;
}

/** Sub-questions grouped by topic, in ordinal order. */
export async function readWorkspaceSubquestions(
  ws: WorkspaceLike,
): Promise<Map<string, Question[]>> {
  const rows = await ws.query<Question>(
    `SELECT topic_id AS "topicId", question_id AS "questionId", kind, ordinal, text, type,
       importance, answerable
     FROM questions WHERE kind = 'subquestion' ORDER BY topic_id, ordinal`,
  );
  return group(rows.map(clean), (q) => q.topicId);
}

/** Ratings, optionally of one judge and of one kind of item (a passage, a report of a run, the reference summary; see `rated_items`). */
export async function readRatings(
  ws: WorkspaceLike,
  judge?: string,
  opts: { kind?: "passage" | "report" | "reference" } = {},
): Promise<Rating[]> {
  const where = [
    ...(judge === undefined ? [] : ["r.judge = $1"]),
    ...(opts.kind === undefined ? [] : [`i.item_kind = '${opts.kind}'`]),
  ];
  const rows = await ws.query<Rating>(
    `SELECT r.topic_id AS "topicId", r.item_id AS "itemId", r.question_id AS "questionId",
       r.rating, r.judge
     FROM ratings r ${
      opts.kind === undefined ? "" : "JOIN rated_items i USING (topic_id, item_id, judge)"
    }
     ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
    judge === undefined ? [] : [judge],
  );
  return rows;
}

/** Qrels of one name (e.g. `crux_pr`). */
export async function readWorkspaceQrels(ws: WorkspaceLike, name: string): Promise<Qrel[]> {
  const rows = await ws.query<Qrel>(
    `SELECT topic_id AS "topicId", doc_id AS "docId", grade, subtopic FROM qrels WHERE name = $1`,
    [name],
  );
  return rows.map(clean);
}

/** Rows of one run. */
export async function readWorkspaceRun(ws: WorkspaceLike, run: string): Promise<RunRow[]> {
  return await ws.query<RunRow>(
    `SELECT run, topic_id AS "topicId", doc_id AS "docId", rank, score FROM runs WHERE run = $1`,
    [run],
  );
}

/** Groups items by a key, keeping their order. */
export function group<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    let list = out.get(k);
    if (!list) out.set(k, list = []);
    list.push(item);
  }
  return out;
}
