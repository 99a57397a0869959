// Runs one call with bounded retries, limits and a durable trace write.
import type { CallCache, CallStatus, StoredCall } from "./call_cache.ts";
import type { ParseResult, RetryWait, Usage } from "./types.ts";
import type { CallLogprobs } from "@lib/store/llm_cache.ts";
import type { Semaphore } from "./_limiter.ts";
import type { RateLimiter } from "./_limiter.ts";
import { backoffMs, delay, TransportError } from "./_retry.ts";

/** A call ready to send. */
export interface Job {
  key: string;
  kind: string;
  model: string;
  template?: string;
  /** Wire parameters, recorded. */
  params: Record<string, unknown>;
  /** Messages or inputs, recorded. */
  messages: unknown;
  /** Rough token count for the tokens-per-minute limit. */
  tokens: number;
  /** Full URL the job is sent to (no credentials), for messages; default: the endpoint. */
  url?: string;
  /** `top_logprobs` asked (chat only); undefined when no log-probabilities are asked. */
  topLogprobs?: number;
  send(
    signal: AbortSignal | undefined,
  ): Promise<{ response: string; usage: Usage; logprobs?: CallLogprobs }>;
}

/** Limits, retry policy and sinks shared by all calls of a client. */
export interface RunContext {
  endpoint: string;
  cache?: CallCache;
  /** Requests on the wire. */
  slots: Semaphore;
  /** Requests on the wire or answered but not yet committed (twice `slots`). */
  flight: Semaphore;
  rpm?: RateLimiter;
  tpm?: RateLimiter;
  maxRetries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Longest wait before a retry, whatever `Retry-After` asks. */
  maxRetryWaitMs: number;
  /** Largest answer stored, in UTF-8 bytes; a larger one is recorded failed. */
  maxAnswerBytes: number;
  /** Told of every wait before a retry, when it begins. */
  onWait?: (wait: RetryWait) => void;
  random: () => number;
  signal?: AbortSignal;
}

/** UTF-8 size of a text (exact; counted only when it could exceed `limit`). */
function overLimit(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  const bytes = new TextEncoder().encode(text).length;
  return bytes > limit ? bytes : undefined;
}

/**
 * Sends a job until it succeeds, fails permanently, or uses up its retries; then
 * commits the outcome to the cache before resolving. Aborts propagate as errors
 * and leave no record.
 */
export async function runJob(
  job: Job,
  ctx: RunContext,
  opts: { prior?: StoredCall; parse?: (text: string) => ParseResult<unknown> } = {},
): Promise<StoredCall> {
  const { signal } = ctx;
  let lastError = "";
  let latencyMs = 0;
  let attempts = opts.prior?.attempts ?? 0;
  for (let attempt = 1; attempt <= ctx.maxRetries + 1; attempt++) {
    await ctx.rpm?.take(1, signal);
    await ctx.tpm?.take(job.tokens, signal);
    // Every slot taken here is given back on every path, aborts included.
    await ctx.flight.acquire(signal);
    let failure: TransportError | undefined;
    // With a journal, an answer holds its request slot until it is written there
    // (a turn of the event loop), so the calls a kill can lose stay within the
    // concurrency; without, the slot is given back before the (slower) commit.
    const journaled = ctx.cache?.journal !== undefined;
    let holding = false;
    const free = () => {
      if (holding) ctx.slots.release();
      holding = false;
    };
    try {
      await ctx.slots.acquire(signal);
      holding = true;
      let answer: { response: string; usage: Usage; logprobs?: CallLogprobs } | undefined;
      const started = performance.now();
      try {
        signal?.throwIfAborted();
        attempts++;
        answer = await job.send(signal);
        // An empty answer (`content` null or "") is no answer: it fails like a
        // server error, so it is retried and never cached as a result.
        if (job.kind === "chat" && answer.response.trim() === "") {
          answer = undefined;
          throw new TransportError({
            retryable: true,
            message: "empty answer (content null or empty)",
          });
        }
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        failure = error;
      } finally {
        // The slot bounds requests on the wire; a commit below does not hold it.
        if (!(journaled && answer)) free();
        latencyMs = performance.now() - started;
      }
      const size = answer && overLimit(answer.response, ctx.maxAnswerBytes);
      if (answer && size !== undefined) {
        // Not stored and not retried: the same request would bring the same answer.
        const call = record(job, ctx, {
          response: "",
          usage: answer.usage,
          status: "failed",
          attempts,
          latencyMs,
        });
        call.error = `Answer of ${size} bytes from ${job.url ?? ctx.endpoint} exceeds the ` +
          `maximum of ${ctx.maxAnswerBytes} bytes (maxAnswerBytes); not stored`;
        await ctx.cache?.put(call);
        return call;
      }
      if (answer) {
        const parsed = opts.parse?.(answer.response);
        const status: CallStatus = parsed && !parsed.ok ? "unparsed" : "ok";
        const call = record(job, ctx, { ...answer, status, attempts, latencyMs });
        if (parsed && !parsed.ok) call.error = `Unparseable output: ${parsed.reason}`;
        await ctx.cache?.put(call);
        return call;
      }
    } finally {
      free();
      ctx.flight.release();
    }
    if (!failure) throw new Error("Unreachable: attempt ended without answer or failure");
    lastError = failure.message;
    if (!failure.failure.retryable || attempt > ctx.maxRetries) break;
    const wanted = backoffMs(attempt, {
      baseMs: ctx.backoffBaseMs,
      maxMs: ctx.backoffMaxMs,
      random: ctx.random,
      retryAfterMs: failure.failure.retryAfterMs,
    });
    const waitMs = Math.min(wanted, ctx.maxRetryWaitMs);
    ctx.onWait?.({
      url: job.url ?? ctx.endpoint,
      waitMs,
      retryAfterMs: failure.failure.retryAfterMs,
      capped: wanted > ctx.maxRetryWaitMs,
      reason: failure.message,
      attempt: attempt + 1,
    });
    await delay(waitMs, signal);
  }
  const call = record(job, ctx, {
    response: "",
    usage: { promptTokens: 0, completionTokens: 0 },
    status: "failed",
    attempts,
    latencyMs,
  });
  call.error = `Failed after ${attempts} attempt(s): ${lastError}`;
  await ctx.cache?.put(call);
  return call;
}

function record(
  job: Job,
  ctx: RunContext,
  r: {
    response: string;
    usage: Usage;
    status: CallStatus;
    attempts: number;
    latencyMs: number;
    logprobs?: CallLogprobs;
  },
): StoredCall {
  const call: StoredCall = {
    key: job.key,
    model: job.model,
    endpoint: `${ctx.endpoint} ${job.kind}`,
    template: job.template,
    params: job.params,
    messages: job.messages,
    ...r,
  };
  if (call.logprobs === undefined) delete call.logprobs;
  return call;
}
