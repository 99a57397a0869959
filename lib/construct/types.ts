/**
 * Types shared by the construction steps.
 *
 * @module
 */
import type { ProgressFn } from "@lib/llm/mod.ts";

/** The steps of `crux construct`, in pipeline order. */
export type ConstructStep =
  | "passages"
  | "requests"
  | "questions"
  | "ratings"
  | "select"
  | "corpus"
  | "stats";

/** Options every workspace step accepts. */
export interface StepOptions {
  /** Only these topics (default: every topic of the workspace). */
  topics?: readonly string[];
  /** Progress of model calls (done / total / rate / ETA). */
  onProgress?: ProgressFn;
  /** Notes worth telling the user (empty outputs, skipped topics, failures). */
  onNote?: (message: string) => void;
  /** Cancels the step; finished calls stay cached. */
  signal?: AbortSignal;
}

/** What a step did. */
export interface StepSummary {
  step: string;
  /** Topics the step worked on in this run. */
  topics: number;
  /** Topics skipped because their output was already in the workspace. */
  skipped: number;
  /** Records written (passages, questions, ratings, qrels...). */
  written: number;
  /** Model calls (or topics) that failed; re-running the step retries them. */
  failed: number;
  /** Outputs that could not be parsed (recorded, e.g. ratings of -1). */
  unparsed: number;
}
