// Options of the model client: endpoint, model, concurrency, rate limits, retries and timeouts.

import type { CallCache } from "./call_cache.ts";
import type { ClientLimits } from "./client_limits.ts";
import type { ParseResult, ProgressFn, SamplingParams } from "./types.ts";

/** Options of {@link LlmClient}. */
export interface LlmClientOptions {
  /** Endpoint base URL, e.g. `https://api.openai.com/v1` or `http://localhost:8000/v1`. */
  baseUrl: string;
  /** API key; held in memory only, never stored or logged. Default: none. */
  apiKey?: string;
  /** Default model of requests. */
  model: string;
  /** Cache and trace; without it every request is sent. */
  cache?: CallCache;
  /** Default sampling parameters (request params override field by field). Default `{}`. */
  params?: SamplingParams;
  /** Requests in flight at most. Default 8. */
  concurrency?: number;
  /** Retries after the first attempt on 429, 5xx, timeouts and connection errors. Default 4. */
  maxRetries?: number;
  /** Per-attempt timeout in ms. Default 60000. */
  timeoutMs?: number;
  /** First backoff delay in ms (doubled per retry, jittered). Default 500. */
  backoffBaseMs?: number;
  /** Longest backoff delay in ms. Default 20000. */
  backoffMaxMs?: number;
  /**
   * Longest wait before a retry, whatever the server's `Retry-After` asks, in ms.
   * Every wait is announced through the progress callback. Default 120000.
   */
  maxRetryWaitMs?: number;
  /**
   * Largest answer accepted, in bytes (UTF-8). A larger answer is recorded `failed`
   * with its size and is not stored. Default 262144 (256 KiB).
   */
  maxAnswerBytes?: number;
  /** Requests per minute limit. Default: none. */
  rpm?: number;
  /** Tokens per minute limit (prompt characters / 4 + max tokens). Default: none. */
  tpm?: number;
  /**
   * Limits shared with other clients: requests in flight and per-minute rates then
   * count across every client given the same {@link ClientLimits} (stages running at
   * once against one endpoint). When given, `concurrency`, `rpm` and `tpm` are the
   * limits' own and those options are not read. Default: limits of this client alone.
   */
  limits?: ClientLimits;
  /** Ask again calls stored as `failed` or `unparsed` by an earlier run. Default true. */
  retryFailed?: boolean;
  /** Texts per embeddings request. Default 64. */
  embedBatchSize?: number;
  /** Random source for jitter. Default `Math.random`. */
  random?: () => number;
  /** Replacement `fetch` (for proxies or tests). */
  fetch?: typeof fetch;
  /**
   * Follow HTTP redirects to another origin. Default false (or `CRUX_FOLLOW_REDIRECTS=1`):
   * a redirect within the endpoint's origin is followed, one elsewhere is an error,
   * so the API key is never sent to a host it was not meant for.
   */
  followRedirects?: boolean;
}

/** Options of {@link LlmClient.chatMany}. */
export interface ChatManyOptions<T> {
  signal?: AbortSignal;
  onProgress?: ProgressFn;
  /** Step name for progress events. Default `chat`. */
  step?: string;
  /** Parser of the answer text; failures are stored as `unparsed` with the raw text. */
  parse?: (text: string) => ParseResult<T>;
  /** Re-asks after an unparseable answer, at `reaskTemperature` and seed + i. Default 0. */
  reasks?: number;
  /** Temperature of re-asks. Default 0.2. */
  reaskTemperature?: number;
  /**
   * Answer from the cache a call stored as `unparsed` (the caller re-asks it
   * itself). Default false: an unparsed answer of an earlier run is asked again.
   */
  keepUnparsed?: boolean;
}
