/**
 * Limits that several model clients share: requests in flight, and requests
 * and tokens per minute, counted across every client holding them.
 *
 * @module
 */
import { RateLimiter, Semaphore } from "./_limiter.ts";

/** Settings of {@linkcode ClientLimits}. */
export interface ClientLimitSettings {
  /** Requests in flight at most, across the clients. Default 8. */
  concurrency?: number;
  /** Requests per minute, across the clients. Default (or 0): none. */
  rpm?: number;
  /** Tokens per minute (prompt characters / 4 + max tokens), across the clients. Default (or 0): none. */
  tpm?: number;
}

/**
 * One set of limits for the clients given it (`LlmClientOptions.limits`): stages
 * running at once against one endpoint then keep, together, to the concurrency
 * and rates that one client would keep.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ClientLimits, LlmClient } from "@lib/llm/mod.ts";
 * const limits = new ClientLimits({ concurrency: 4, rpm: 600 });
 * const a = new LlmClient({ baseUrl: "http://127.0.0.1:9/v1", model: "m", limits });
 * const b = new LlmClient({ baseUrl: "http://127.0.0.1:9/v1", model: "m", limits });
 * assert.equal(a.limits, b.limits);
 * assert.equal(a.limits.concurrency, 4);
 * ```
 */
export class ClientLimits {
  /** Requests in flight at most. */
  readonly concurrency: number;
  /** Requests per minute, when limited. */
  readonly rpm?: number;
  /** Tokens per minute, when limited. */
  readonly tpm?: number;
  /** @internal Slots of requests on the wire. */
  readonly slots: Semaphore;
  /** @internal Slots of requests on the wire or answered but not yet durable. */
  readonly flight: Semaphore;
  /** @internal */
  readonly rpmLimiter?: RateLimiter;
  /** @internal */
  readonly tpmLimiter?: RateLimiter;

  /**
   * @param settings Concurrency and rates.
   * @throws {RangeError} When concurrency is not a positive integer, or a rate not positive.
   */
  constructor(settings: ClientLimitSettings = {}) {
    const concurrency = settings.concurrency ?? 8;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`Invalid concurrency ${concurrency}: use a positive integer`);
    }
    for (const [name, rate] of [["rpm", settings.rpm], ["tpm", settings.tpm]] as const) {
      if (rate !== undefined && rate !== 0 && !(rate > 0)) {
        throw new RangeError(`Invalid ${name} ${rate}: use a positive number per minute (0: none)`);
      }
    }
    this.concurrency = concurrency;
    this.rpm = settings.rpm || undefined;
    this.tpm = settings.tpm || undefined;
    this.slots = new Semaphore(concurrency);
    this.flight = new Semaphore(4 * concurrency);
    if (this.rpm) this.rpmLimiter = new RateLimiter(this.rpm);
    if (this.tpm) this.tpmLimiter = new RateLimiter(this.tpm);
  }
}
