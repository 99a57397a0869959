/**
 * The record types shared by every area of the workbench. The same camelCase
 * fields are used in DuckDB rows, JSONL files and Vega-Lite data, so a record
 * read from one place can be written to any other unchanged.
 *
 * Identifier conventions (see the CRUX release format):
 * - passage ids are `{topic}:{doc}#{j}` where `doc` is the document's index in
 *   the topic and `j` counts passages across the whole topic;
 * - a report (human summary or generated text) of a topic is judged under the
 *   item id `{topic}:report` (or `{topic}:report:{run}` for generated reports);
 * - sub-questions are numbered from 1 within a topic (`ordinal`), and their
 *   `questionId` is `{topic}#q{ordinal}` unless a source file gives another id.
 *
 * @module
 */

/** A topic: one information need with its request and (optionally) reference summary. */
export interface Topic {
  topicId: string;
  /** Open-ended report request (CRUX) or query text. */
  request: string;
  /** Short title or original query, when the source has one. */
  title?: string;
  /** Human-written multi-document summary (the oracle report), when known. */
  summary?: string;
  /** Dataset the topic came from (`sample`, `multi_news`, `duc04`, `crux`, ...). */
  source?: string;
}

/** A source document of a topic (a news article of a cluster). */
export interface Document {
  topicId: string;
  docId: string;
  /** Index of the document within its topic, from 0. */
  docIndex: number;
  text: string;
  title?: string;
}

/** A retrievable passage; ids follow the CRUX scheme `{topic}:{doc}#{j}`. */
export interface Passage {
  passageId: string;
  topicId: string;
  docId: string;
  text: string;
  /** Token count under the workspace's tokenizer (Llama-3.1 by default). */
  tokens?: number;
}

/** What a question-like item is used for. */
export type QuestionKind = "subquestion" | "nugget" | "keypoint";

/** A sub-question, nugget or key point attached to a topic. */
export interface Question {
  topicId: string;
  questionId: string;
  kind: QuestionKind;
  /** Position within the topic's list of this kind, numbered from 1. */
  ordinal: number;
  text: string;
  /** Sub-question type (core | background | follow-up) when known. */
  type?: string;
  /** Nugget importance (vital | okay) when known. */
  importance?: string;
  /** Whether the question is answerable by the topic's passages (rating >= tau). */
  answerable?: boolean;
}

/** A graded answerability judgment 0-5 of one item (passage or report) for one question; -1 = unparseable. */
export interface Rating {
  topicId: string;
  /** Passage id or report id (`{topic}:report`). */
  itemId: string;
  questionId: string;
  rating: number;
  /** Who judged: `human`, `lexical`, a model name, or `import:<file>`. */
  judge: string;
}

/** A relevance judgment. `subtopic` is 0 for plain qrels and the subtopic id for diversity qrels. */
export interface Qrel {
  topicId: string;
  docId: string;
  grade: number;
  subtopic?: string;
}

/** One line of a ranked run. */
export interface RunRow {
  run: string;
  topicId: string;
  docId: string;
  rank: number;
  score: number;
}

/** A generated (or reference) text for a topic. */
export interface Generation {
  run: string;
  topicId: string;
  text: string;
  /** Condition: `rag`, `direct`, `oracle-context`, `oracle-result`, ... */
  condition?: string;
  /** Backend that produced it (`extractive`, a model name, `human`). */
  backend?: string;
  /** Passage ids used as context, in order. */
  contextIds?: string[];
  tokens?: number;
}

/** A label assigned to a nugget / key point / sub-question for one answer. */
export interface Assignment {
  run: string;
  topicId: string;
  questionId: string;
  /** support | partial_support | not_support | failed | answered | unanswered | yes | no | neutral */
  label: string;
  judge: string;
  /** Supporting span or reason when the protocol returns one. */
  evidence?: string;
}

/**
 * One row of the measure table `measures`: a value keyed by run, topic (`all` for
 * the aggregate), measure (as the registry prints it), judge and source.
 */
export interface MeasureRow {
  run: string;
  topicId: string;
  /** Canonical measure string, e.g. `Cov@10`, `alpha_nDCG@oracle`, `strict_vital`. */
  measure: string;
  /** The measure without parameters or cutoff. */
  name: string;
  /** The cutoff as written (`10`, `oracle`), '' for none. */
  cutoff: string;
  /** Evaluation method: trec, crux, nuggets, keypoints, subq, compare. */
  method: string;
  /** Judge whose labels produced the value ('' where none applies). */
  judge: string;
  /** Relevance or item source (`selection`, `judgments`, `report`, `context`, ...), '' where none applies. */
  source: string;
  value: number;
  /** Topics averaged (aggregate rows only; null or absent elsewhere). */
  topics?: number | null;
  /**
   * The topics the value is over, as `formatTopicSet` writes it (`topic(id=t1)`,
   * `answerable(tau=3,n=49)`, `judged(n=50)`); null or absent where none is stated.
   */
  topicSet?: string | null;
}

/** One measured value; `topicId` is `all` for aggregates. */
export interface MetricRow {
  run: string;
  topicId: string;
  measure: string;
  value: number;
}
