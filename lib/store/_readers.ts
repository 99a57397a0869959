/** Typed readers of the workspace tables; private to `@lib/store`. */
import type {
  Assignment,
  Document,
  Generation,
  MeasureRow,
  Passage,
  Qrel,
  Question,
  QuestionKind,
  Rating,
  RunRow,
  Topic,
} from "@lib/types/mod.ts";

/** Runs a query returning camelCase records with nulls left out. */
export type RecordQuery = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

/** Filters accepted by the readers; every field is optional and ANDed. */
export interface ReadFilter {
  topicId?: string;
  run?: string;
  kind?: QuestionKind;
  judge?: string;
  itemId?: string;
  measure?: string;
  source?: string;
}

function where(filter: Record<string, string | undefined>): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  for (const [column, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    params.push(value);
    parts.push(`${column} = $${params.length}`);
  }
  return { sql: parts.length ? ` WHERE ${parts.join(" AND ")}` : "", params };
}

function select<T>(
  read: RecordQuery,
  table: string,
  filter: Record<string, string | undefined>,
  order: string,
  columns = "*",
): Promise<T[]> {
  const w = where(filter);
  return read<T>(`SELECT ${columns} FROM ${table}${w.sql} ORDER BY ${order}`, w.params);
}

/** Sort key of a CRUX passage id `{topic}:{doc}#{j}`: j as a number (other ids last). */
const PASSAGE_J = `TRY_CAST(regexp_extract(passage_id, '#([0-9]+)$', 1) AS INTEGER) NULLS LAST`;

/**
 * Ratings with the sort keys that make them read in the natural order:
 * passages by `j`, questions by their ordinal (not `q10` before `q2`).
 */
const RATINGS_ORDERED = `(SELECT r.*,
    TRY_CAST(regexp_extract(r.item_id, '#([0-9]+)$', 1) AS INTEGER) AS item_j,
    q.ordinal AS question_ordinal
  FROM ratings r LEFT JOIN (
    SELECT topic_id, question_id, min(ordinal) AS ordinal FROM questions GROUP BY ALL
  ) q USING (topic_id, question_id))`;

export const readers = {
  topics: (read: RecordQuery) => select<Topic>(read, "topics", {}, "topic_id"),
  documents: (read: RecordQuery, topicId?: string) =>
    select<Document>(read, "documents", { topic_id: topicId }, "topic_id, doc_index, doc_id"),
  passages: (read: RecordQuery, topicId?: string) =>
    select<Passage>(
      read,
      "passages",
      { topic_id: topicId },
      `topic_id, ${PASSAGE_J}, passage_id`,
    ),
  questions: (read: RecordQuery, f: ReadFilter = {}) =>
    select<Question>(
      read,
      "questions",
      { topic_id: f.topicId, kind: f.kind },
      "topic_id, kind, ordinal",
    ),
  ratings: (read: RecordQuery, f: ReadFilter = {}) =>
    select<Rating>(
      read,
      RATINGS_ORDERED,
      { topic_id: f.topicId, judge: f.judge, item_id: f.itemId },
      "topic_id, item_j NULLS LAST, item_id, question_ordinal NULLS LAST, question_id, judge",
      "topic_id, item_id, question_id, rating, judge",
    ),
  qrels: (read: RecordQuery, name: string) =>
    select<Qrel>(
      read,
      "qrels",
      { name },
      "topic_id, subtopic, doc_id",
      "topic_id, doc_id, grade, subtopic",
    ),
  runRows: (read: RecordQuery, run?: string) =>
    select<RunRow>(read, "runs", { run }, "run, topic_id, rank, score DESC, doc_id"),
  generations: (read: RecordQuery, f: ReadFilter = {}) =>
    select<Generation>(read, "generations", { run: f.run, topic_id: f.topicId }, "run, topic_id"),
  assignments: (read: RecordQuery, f: ReadFilter = {}) =>
    select<Assignment>(
      read,
      "assignments",
      { run: f.run, topic_id: f.topicId, judge: f.judge },
      "run, topic_id, question_id, judge",
    ),
  measures: (read: RecordQuery, f: ReadFilter = {}) =>
    select<MeasureRow>(
      read,
      "measures",
      { run: f.run, topic_id: f.topicId, measure: f.measure, judge: f.judge, source: f.source },
      "run, measure, judge, source, topic_id",
    ),
};
