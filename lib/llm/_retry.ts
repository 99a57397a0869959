// Error classification, backoff and cancellable waiting for the call runner.

/** How a failed attempt should be handled. */
export interface AttemptFailure {
  retryable: boolean;
  /** Delay the server asked for (Retry-After), in ms. */
  retryAfterMs?: number;
  /** HTTP status, when there was a response. */
  status?: number;
  message: string;
}

/** An error raised by a transport with everything the runner needs to decide. */
export class TransportError extends Error {
  override name = "TransportError";
  constructor(readonly failure: AttemptFailure) {
    super(failure.message);
  }
}

/** Parses a `Retry-After` (seconds or HTTP date) or `retry-after-ms` header into ms. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** Statuses worth retrying: rate limits, timeouts, conflicts and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Delay before retry number `attempt` (1 = first retry): exponential with equal
 * jitter, `cap * (0.5 + 0.5 * random())` where `cap = min(maxMs, baseMs * 2^(attempt-1))`,
 * so between half the cap and the cap, but never less than the server's
 * Retry-After. Equal rather than full jitter keeps a floor under each wait, so
 * retries after a 429 or 5xx never come back almost at once.
 */
export function backoffMs(
  attempt: number,
  opts: { baseMs: number; maxMs: number; random: () => number; retryAfterMs?: number },
): number {
  const cap = Math.min(opts.maxMs, opts.baseMs * 2 ** (attempt - 1));
  const jittered = cap * (0.5 + 0.5 * opts.random());
  return Math.max(jittered, opts.retryAfterMs ?? 0);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(id);
      reject(signal?.reason);
    };
    const id = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Removes secrets from a message: the given key and any bearer token. */
export function redact(message: string, secret?: string): string {
  let out = message;
  if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
  return out.replace(/Bearer\s+\S+/gi, "Bearer [redacted]");
}
