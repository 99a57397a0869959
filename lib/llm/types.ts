/**
 * Types shared by the LLM layer: requests, call records, parse results and the
 * interfaces that online and offline backends both implement.
 *
 * @module
 */
import type { TokenLogprob } from "@lib/store/llm_cache.ts";
export type { TokenAlternative, TokenLogprob } from "@lib/store/llm_cache.ts";

/** The roles a model can play in an experiment; each may use its own endpoint and model. */
export type Role = "generator" | "judge" | "embedder" | "reranker";

/** One chat message. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Sampling parameters, passed through to the endpoint and recorded with every call. */
export interface SamplingParams {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  stop?: string[];
}

/** A chat completion request. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Model name; defaults to the client's model. */
  model?: string;
  /** Overrides the client's default parameters field by field. */
  params?: SamplingParams;
  /** Template the messages were rendered from, as `id@version` (part of the cache key). */
  template?: string;
  /** Caller's identifier, echoed in the record (not part of the cache key). */
  id?: string;
  /**
   * Asks for log-probabilities with this many alternatives per token (`logprobs: true,
   * top_logprobs: k` on the wire; not part of the cache key: a cached answer serves the
   * request when it was stored with at least `k` alternatives asked, else it is asked again).
   */
  logprobs?: number;
}

/** Result of parsing a model output: a value, or a failure that keeps the raw text. */
export type ParseResult<T> =
  | { ok: true; value: T }
  | { ok: false; raw: string; reason: string };

/** Token usage of a call; null = unknown (not reported, or reported as a negative or non-finite count). */
export interface Usage {
  promptTokens: number | null;
  completionTokens: number | null;
}

/** What became of one request. */
export interface CallRecord<T = unknown> {
  /** Cache key (SHA-256 hex) of the request. */
  key: string;
  /** The request's `id`, when it had one. */
  id?: string;
  /** `ok` when the endpoint answered; `failed` after bounded retries or a permanent error. */
  status: "ok" | "failed";
  /** Answer text (`""` when failed). */
  text: string;
  model: string;
  template?: string;
  usage: Usage;
  /** Wall time of the successful (or last) attempt, ms; 0 for cache hits of failed calls. */
  latencyMs: number;
  /** HTTP attempts made for this request over all runs. */
  attempts: number;
  /** `true` when served from the cache without any HTTP request in this run. */
  cached: boolean;
  /** Why the call failed (never contains the API key). */
  error?: string;
  /** Parsed output when a parser was given. */
  parsed?: ParseResult<T>;
  /**
   * The first generated tokens' log-probabilities, when the call asked for them;
   * `null` when the endpoint returned none.
   */
  logprobs?: TokenLogprob[] | null;
}

/** Progress of a job, reported through a callback. */
export interface ProgressEvent {
  /** Name of the step, e.g. `answerability`. */
  step: string;
  /** Requests finished (cached, answered or failed). */
  done: number;
  total: number;
  /** Requests served from the cache. */
  cached: number;
  /** Requests that ended `failed`. */
  failed: number;
  /** Milliseconds since the job started. */
  elapsedMs: number;
  /** Finished requests per second, cache hits excluded. */
  rate: number;
  /** Estimated milliseconds to completion (`NaN` before the first answer). */
  etaMs: number;
  /** Retry waits so far and their total length in ms (absent when none). */
  waits?: { count: number; totalMs: number };
  /** The wait that just began, announced when it starts. */
  waiting?: RetryWait;
}

/** A wait before a retry: where, why, how long (capped) and how long the server asked. */
export interface RetryWait {
  /** Full URL of the request (no credentials). */
  url: string;
  /** The wait, in ms, after the cap. */
  waitMs: number;
  /** The server's `Retry-After`, in ms, when it sent one. */
  retryAfterMs?: number;
  /** True when the server asked for longer than the cap. */
  capped: boolean;
  /** The failure being retried, e.g. `HTTP 429 from http://host/v1/chat/completions: busy`. */
  reason: string;
  /** Number of the coming attempt. */
  attempt: number;
}

/** A progress callback. */
export type ProgressFn = (event: ProgressEvent) => void;

/** A graded answerability judgment as produced by any judge backend. */
export interface AnswerabilityResult {
  /** Caller's id of the pair. */
  id: string;
  /** 0-5, or -1 when the output could not be parsed or the call failed. */
  rating: number;
  status: "ok" | "unparsed" | "failed";
  /**
   * Raw model output (for offline judges, the score that led to the rating);
   * `null` when the call failed, as there is no model output then.
   */
  raw: string | null;
  /** Why the call failed (status `failed` only; never contains the API key). */
  error?: string;
  /** Backend name: `lexical` or the model name. */
  judge: string;
}

/** One (question, context) pair to judge. */
export interface AnswerabilityPair {
  id: string;
  question: string;
  context: string;
}

/** Anything that rates how well contexts answer questions on the 0-5 scale. */
export interface AnswerabilityJudge {
  /** Backend name recorded with every rating. */
  readonly name: string;
  rate(
    pairs: readonly AnswerabilityPair[],
    opts?: { signal?: AbortSignal; onProgress?: ProgressFn },
  ): Promise<AnswerabilityResult[]>;
}

/** A report generation request. */
export interface GenerationInput {
  /** The report request or query. */
  request: string;
  /** Context passages in rank order (empty for direct prompting). */
  contexts: readonly string[];
  /** Token budget of the answer (Llama-3.1 tokens). */
  maxTokens: number;
}

/** A generated text. */
export interface GenerationOutput {
  text: string;
  /** Token count of `text` (Llama-3.1 tokenizer). */
  tokens: number;
  status: "ok" | "failed";
  /** Backend name: `extractive` or the model name. */
  backend: string;
  error?: string;
}

/** Anything that writes a report from a request and contexts. */
export interface Generator {
  readonly name: string;
  generate(input: GenerationInput, opts?: { signal?: AbortSignal }): Promise<GenerationOutput>;
}

/** A source document's split into passages, from an LLM rewrite or a chunker. */
export interface SplitResult {
  passages: string[];
  status: "ok" | "unparsed" | "failed";
  /** Raw model output(s) when a piece gave no passage (`""` otherwise). */
  raw: string;
}

/** Anything that turns source documents into standalone passages (CRUX step 1). */
export interface PassageSplitter {
  /** Backend name: `chunker` or the model name. */
  readonly name: string;
  split(
    documents: readonly string[],
    opts?: { signal?: AbortSignal; onProgress?: ProgressFn },
  ): Promise<SplitResult[]>;
}
