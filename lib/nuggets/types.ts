/**
 * Types of the nugget steps: the backend interface that the offline and the
 * model backends both implement, one window of work at a time.
 *
 * @module
 */
import type { ProgressFn } from "@lib/llm/mod.ts";

/** Outcome of one window: the value, or `failed` with the raw output (or error) kept. */
export interface WindowOutcome<T> {
  status: "ok" | "failed";
  /** The value (status `ok`). */
  value?: T;
  /** Raw model output, or the offline backend's evidence. */
  raw: string;
  /** Cache key of the call that produced it (model backends). */
  call?: string;
  /** Why it failed. */
  reason?: string;
}

/** One creation window: the query, the running nugget list and up to 10 passages. */
export interface CreateWindow {
  query: string;
  nuggets: readonly string[];
  passages: readonly string[];
  /** At most this many nuggets in the updated list. */
  maxNuggets: number;
}

/** One labelling window: up to 10 nuggets of a topic and the topic's relevant passages. */
export interface LabelWindow {
  query: string;
  nuggets: readonly string[];
  /** The topic's relevant passages (the offline backend counts nuggets in them). */
  passages: readonly string[];
}

/** One assignment window: an answer and up to 10 nuggets of its topic. */
export interface AssignWindow {
  query: string;
  answer: string;
  nuggets: readonly string[];
}

/** Options shared by the window calls. */
export interface WindowCallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressFn;
}

/**
 * A backend of the three nugget steps (creation, importance, assignment).
 * `offline` backends say so in every output.
 */
export interface NuggetBackend {
  /** Recorded as the origin of created nuggets (`created:<name>`) and as the labeller. */
  readonly name: string;
  /** Recorded as the judge of assignments (`lexical-nuggets` offline, else the model). */
  readonly judge: string;
  readonly offline: boolean;
  /** Updates a running nugget list from one window of passages. */
  create(
    window: CreateWindow,
    opts?: WindowCallOptions,
  ): Promise<WindowOutcome<string[]>>;
  /** Labels windows of nuggets, one outcome per window with one label per nugget. */
  label(
    windows: readonly LabelWindow[],
    opts?: WindowCallOptions,
  ): Promise<WindowOutcome<("vital" | "okay")[]>[]>;
  /** Assigns windows of nuggets to answers, one outcome per window with one label per nugget. */
  assign(
    windows: readonly AssignWindow[],
    opts?: WindowCallOptions,
  ): Promise<WindowOutcome<("support" | "partial_support" | "not_support")[]>[]>;
}
