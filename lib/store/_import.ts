/** Shared pieces of the importers; private to `@lib/store`. */
import type { Question, Rating } from "@lib/types/mod.ts";
import type { Judgment } from "@lib/formats/mod.ts";
import type { Workspace } from "./workspace.ts";

/** Rows written per table by an import. */
export type ImportCounts = Record<string, number>;

/** Options shared by the importers. */
export interface ImportOptions {
  /**
   * Called with progress messages (the CLI prints them on stderr). Counts in them
   * are records read from the input files, never rows stored: an import stores
   * nothing until its transaction commits.
   */
  onProgress?: (message: string) => void;
}

/** Progress message for records read (not stored) for a table: `topics: 2 records read`. */
export function readMessage(table: string, n: number): string {
  return `${table}: ${n} ${n === 1 ? "record" : "records"} read`;
}

/** Sub-question records of a topic: ordinal from 1, id `{topic}#q{ordinal}`. */
export function subquestionRecords(topicId: string, questions: readonly string[]): Question[] {
  return questions.map((text, i) => ({
    topicId,
    questionId: `${topicId}#q${i + 1}`,
    kind: "subquestion",
    ordinal: i + 1,
    text,
  }));
}

/** One rating per question of a judgment (question ids `{topic}#q{ordinal}`). */
export function ratingRecords(judgment: Judgment, judge: string): Rating[] {
  return judgment.ratings.map((rating, i) => ({
    topicId: judgment.topicId,
    itemId: judgment.itemId,
    questionId: `${judgment.topicId}#q${i + 1}`,
    rating,
    judge,
  }));
}

/**
 * Upserts records from a stream, reporting progress as `table: N records read`;
 * returns the rows stored (records repeating a key count once).
 */
export function upsertStream<T extends object>(
  ws: Workspace,
  table: string,
  records: AsyncIterable<T> | Iterable<T>,
  opts: ImportOptions = {},
): Promise<number> {
  return ws.upsertStream(table, records, {
    onProgress: (n) => opts.onProgress?.(readMessage(table, n)),
  });
}
