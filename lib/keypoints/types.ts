/**
 * Interfaces of the key point backends (offline and model-based alike).
 *
 * @module
 */
import type { ProgressFn } from "@lib/llm/mod.ts";

/** Call options shared by the backends. */
export interface BackendCallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressFn;
}

/** A (question, document) pair to extract key points from. */
export interface ExtractionInput {
  /** Caller's id of the pair. */
  id: string;
  question: string;
  document: string;
}

/** One key point as extracted, before span checks and merging. */
export interface ExtractedPoint {
  text: string;
  /** Verbatim supporting spans claimed by the extractor. */
  spans: string[];
  /** Extraction round that found it (from 1). */
  round: number;
}

/** Outcome of one backend call: parsed, unparseable after re-asks, or failed after retries. */
export type CallOutcome = "ok" | "unparsed" | "failed";

/** Result of extracting from one pair. */
export interface ExtractionResult {
  id: string;
  points: ExtractedPoint[];
  /** Outcome of the first round; later rounds that fail keep the points found so far. */
  status: CallOutcome;
  /** Rounds asked. */
  rounds: number;
  /** Raw output of the failing call, or the error. */
  raw?: string;
  error?: string;
}

/** Extracts key points from documents. */
export interface KeyPointExtractor {
  /** `offline-salient` or the model name. */
  readonly name: string;
  extract(
    inputs: readonly ExtractionInput[],
    opts?: BackendCallOptions & { rounds?: number },
  ): Promise<ExtractionResult[]>;
}

/** One question's original key points to merge. */
export interface MergeInput {
  id: string;
  question: string;
  /** Texts of the original key points, in order. */
  points: readonly string[];
}

/** Merged point: its text and the indices (0-based) of the originals it covers. */
export interface MergeGroup {
  text: string;
  sources: number[];
}

/** Result of merging one question's points; every original index is in exactly one group. */
export interface MergeResult {
  id: string;
  groups: MergeGroup[];
  /** `ok`, or the reason the originals were kept unmerged (one group each). */
  status: CallOutcome;
  raw?: string;
  error?: string;
}

/** Merges near-duplicate key points of a question. */
export interface KeyPointMerger {
  /** `offline-lexical(threshold)` or the model name. */
  readonly name: string;
  merge(inputs: readonly MergeInput[], opts?: BackendCallOptions): Promise<MergeResult[]>;
}

/**
 * Labels of the entailment protocol, with Long2RAG's meanings: `yes` the text
 * entails the statement, `no` it does not, `neutral` it touches the statement
 * only partly or ambiguously; only `yes` counts as covered. `contradicts` is
 * given only when contradiction is asked for as a separate label.
 */
export type EntailmentLabel = "yes" | "no" | "neutral" | "contradicts";

/**
 * Extraction rounds by default: the first round and one asking for the points
 * missed so far (Long2RAG runs more than one round).
 */
export const DEFAULT_EXTRACTION_ROUNDS = 2;

/** A statement (key point) and a text (response, or documents) to check it against. */
export interface EntailmentPair {
  id: string;
  /** The key point (or the response's statement). */
  keypoint: string;
  /** The response (or the documents). */
  response: string;
}

/** Verdict on one pair; `label` is null when the call failed or could not be read. */
export interface EntailmentResult {
  id: string;
  label: EntailmentLabel | null;
  status: CallOutcome;
  reason: string;
  snippet: string;
  raw?: string;
}

/** Decides whether texts entail statements. */
export interface EntailmentJudge {
  /** `offline-lexical` or the model name. */
  readonly name: string;
  judge(pairs: readonly EntailmentPair[], opts?: BackendCallOptions): Promise<EntailmentResult[]>;
}

/** A question and the documents its key points come from. */
export interface QuestionWithDocuments {
  qid: string;
  question: string;
  documents: readonly { docId: string; text: string }[];
}

/** A step that did not give a usable answer, recorded rather than dropped. */
export interface KeyPointProblem {
  step: "extract" | "merge" | "entail" | "support";
  qid: string;
  /** Document id (extract), run (entail, support) or '' (merge). */
  item: string;
  status: "unparsed" | "failed";
  reason: string;
  /** Raw model output, when there was one. */
  raw?: string;
}
