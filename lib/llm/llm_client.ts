// The one client of every model call: OpenAI-compatible HTTP, bounded concurrency and retries,
// rate limits, caching and tracing.

import type { StoredCall } from "./call_cache.ts";
import type { ChatManyOptions, LlmClientOptions } from "./client_options.ts";
import { cacheKey } from "./cache_key.ts";
import type { CallRecord, ChatRequest, ParseResult } from "./types.ts";
import { ClientLimits } from "./client_limits.ts";
import { type Job, type RunContext, runJob } from "./_call_runner.ts";
import { openAiTransport, type Transport } from "./_transport.ts";
import { ProgressTracker } from "./_progress_tracker.ts";
import { toWire } from "./_wire.ts";
import { toRecord } from "./_to_record.ts";
import { embedJob, rerankJob } from "./_other_jobs.ts";
import { carriesLogprobs } from "./_logprobs.ts";
import { type BatchCollector, EXPORTED_NOTE } from "./batch_collector.ts";
import { readingFinalAnswer } from "./final_answer.ts";

/** The `max_tokens` an answer used up (so it was cut), or `undefined` when it was not or usage is unknown. */
function cutAt(call: StoredCall): number | undefined {
  const max = call.params.max_tokens;
  const used = call.usage.completionTokens;
  if (call.status === "failed" || typeof max !== "number" || max <= 0 || used === null) {
    return undefined;
  }
  return used >= max ? max : undefined;
}

/** The token limit of the one re-ask after a cut answer: twice the old one, and at least 256 more. */
const largerLimit = (max: number) => Math.max(2 * max, max + 256);

/**
 * One client for every model call: chat completions, embeddings, `/rerank` and
 * `/score`, with bounded concurrency, bounded retries (exponential backoff with
 * jitter, honouring `Retry-After`), optional request and token rate limits, a
 * per-call timeout, cancellation, and a durable cache so a repeated request is
 * answered without any HTTP request.
 *
 * A call is finished only once its outcome is durable in the cache: appended to
 * the cache's journal (committed to the database later, in groups) or, without a
 * journal, committed. At most `concurrency` requests are on the wire, and at most
 * `4 * concurrency` calls are between sending and being durable (answers wait for
 * a group commit without holding a request slot), so `kill -9` loses at most the
 * answers on the wire with a journal, and at most that many without.
 *
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { type CallCache, LlmClient } from "@lib/llm/mod.ts";
 * declare const cache: CallCache;
 * const client = new LlmClient({ baseUrl: "http://localhost:8000/v1", model: "llama", cache });
 * const [rec] = await client.chatMany([{ messages: [{ role: "user", content: "2+2?" }] }]);
 * rec.status; // "ok"
 * ```
 */
export class LlmClient {
  readonly model: string;
  readonly #opts: LlmClientOptions;
  readonly #transport: Transport;
  /** The limits this client keeps to (shared with other clients when given in the options). */
  readonly limits: ClientLimits;

  /**
   * @param opts Endpoint, model, cache and limits; see {@link LlmClientOptions}.
   * @throws {RangeError} When concurrency is not a positive integer, or a rate is negative.
   */
  constructor(opts: LlmClientOptions) {
    this.limits = opts.limits ??
      new ClientLimits({ concurrency: opts.concurrency, rpm: opts.rpm, tpm: opts.tpm });
    this.model = opts.model;
    this.#opts = opts;
    this.#transport = openAiTransport({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      fetch: opts.fetch,
      followRedirects: opts.followRedirects ??
        Deno.env.get("CRUX_FOLLOW_REDIRECTS") === "1",
    });
  }

  /** Base URL without credentials. */
  get endpoint(): string {
    return this.#transport.baseUrl;
  }

  #context(signal?: AbortSignal, onWait?: RunContext["onWait"]): RunContext {
    const o = this.#opts;
    return {
      endpoint: this.#transport.baseUrl,
      cache: o.cache,
      slots: this.limits.slots,
      flight: this.limits.flight,
      rpm: this.limits.rpmLimiter,
      tpm: this.limits.tpmLimiter,
      maxRetries: o.maxRetries ?? 4,
      backoffBaseMs: o.backoffBaseMs ?? 500,
      backoffMaxMs: o.backoffMaxMs ?? 20_000,
      maxRetryWaitMs: o.maxRetryWaitMs ?? 120_000,
      maxAnswerBytes: o.maxAnswerBytes ?? 262_144,
      onWait,
      random: o.random ?? Math.random,
      signal,
    };
  }

  /**
   * The job (key, wire body, sender) a chat request becomes. Exposed so batch
   * export produces exactly the bodies and keys the online path uses.
   *
   * @param request The request.
   * @returns Key, model, wire parameters and the request body.
   */
  prepareChat(request: ChatRequest): Job & { body: Record<string, unknown> } {
    const model = request.model ?? this.model;
    const params = toWire({ ...this.#opts.params, ...request.params });
    const messages = request.messages.map((m) => ({ role: m.role, content: m.content }));
    const key = cacheKey({ model, params, messages, template: request.template });
    const topK = request.logprobs;
    if (topK !== undefined && (!Number.isInteger(topK) || topK < 0)) {
      throw new RangeError(
        `Invalid logprobs ${topK} in a chat request: use the number of alternatives per token (an integer >= 0)`,
      );
    }
    const body: Record<string, unknown> = { model, messages, ...params };
    if (topK !== undefined) Object.assign(body, { logprobs: true, top_logprobs: topK });
    const chars = messages.reduce((n, m) => n + m.content.length, 0);
    const timeoutMs = this.#opts.timeoutMs ?? 60_000;
    return {
      key,
      kind: "chat",
      model,
      template: request.template,
      params,
      messages,
      body,
      tokens: Math.ceil(chars / 4) + Number(params.max_tokens ?? 0),
      url: `${this.#transport.baseUrl}/chat/completions`,
      topLogprobs: topK,
      send: async (signal) => {
        const answer = await this.#transport.chat(body, { signal, timeoutMs });
        return {
          response: answer.text,
          usage: answer.usage,
          logprobs: topK === undefined ? undefined : { topK, tokens: answer.logprobs ?? null },
        };
      },
    };
  }

  /**
   * Answers one chat request (from the cache when possible).
   *
   * @param request Messages, model, parameters and template.
   * @param opts Signal, parser and re-asks; see {@link ChatManyOptions}.
   * @returns The call record.
   */
  async chat<T = string>(
    request: ChatRequest,
    opts: ChatManyOptions<T> = {},
  ): Promise<CallRecord<T>> {
    return (await this.chatMany([request], opts))[0];
  }

  /**
   * Answers many chat requests concurrently; identical requests are sent once.
   * A request that keeps failing ends as a `failed` record and the others go on.
   * With a parser, an answer cut by the token limit (completion tokens reaching
   * `max_tokens`) is asked once more with twice the limit (at least 256 more);
   * cut again, its `parsed` is a failure with the raw text.
   * Every answer is durable (journaled or committed) before it counts, and all are
   * committed to the cache's database before this resolves.
   *
   * @param requests The requests.
   * @param opts Signal, progress callback, parser and re-asks.
   * @returns One record per request, in input order.
   * @throws The signal's reason when aborted (finished calls stay cached).
   */
  async chatMany<T = string>(
    requests: readonly ChatRequest[],
    opts: ChatManyOptions<T> = {},
  ): Promise<CallRecord<T>[]> {
    const jobs = requests.map((r) => this.prepareChat(r));
    const cache = this.#opts.cache;
    const stored = cache
      ? await cache.getMany(jobs.map((j) => j.key), { messages: false })
      : new Map<string, StoredCall>();
    const tracker = new ProgressTracker(opts.step ?? "chat", requests.length, opts.onProgress);
    const ctx = this.#context(opts.signal, (w) => tracker.wait(w));
    const inflight = new Map<string, Promise<{ call: StoredCall; cached: boolean }>>();
    const hits = new Map<string, number>();
    // Parsers read the final answer only: reasoning (`<think>` blocks) is removed here.
    const parse = opts.parse
      ? readingFinalAnswer(opts.parse as (t: string) => ParseResult<unknown>)
      : undefined;

    // Failed and unparsed answers of an earlier run are asked again (unless
    // `retryFailed` is false): only results are answered from the cache. An
    // unparsed answer followed by a re-ask is kept: the re-asks repeat from
    // the cache, and only the last one of an item still unparsed is sent.
    // A request asking for log-probabilities is not answered by a call stored
    // without them.
    const usable = (job: Job, call: StoredCall | undefined, keepUnparsed: boolean) =>
      call !== undefined && carriesLogprobs(call, job.topLogprobs) && (call.status === "ok" ||
        (call.status === "unparsed" && keepUnparsed) ||
        (call.status !== "pending" && this.#opts.retryFailed === false));
    const ask = (job: Job, prior: StoredCall | undefined) => {
      const call = runJob(job, ctx, { prior, parse });
      cache?.track(job.key, call);
      return call.then((c) => ({ call: c, cached: false }));
    };
    const resolve = (job: Job, seen: Map<string, StoredCall>, keepUnparsed = false) => {
      let p = inflight.get(job.key);
      if (!p) {
        const prior = seen.get(job.key);
        const collector = cache?.collector;
        const stored = usable(job, prior, keepUnparsed);
        // The same call asked right now by another client of the cache (a stage
        // running beside this one): its answer, as the cache would give it after.
        const asked = stored || collector ? undefined : cache?.asking(job.key);
        p = stored
          ? Promise.resolve({ call: prior!, cached: true })
          : collector
          ? Promise.resolve({ call: this.#collect(collector, job), cached: false })
          : asked
          ? asked.then(
            (call) => usable(job, call, keepUnparsed) ? { call, cached: true } : ask(job, call),
            () => ask(job, prior),
          )
          : ask(job, prior);
        inflight.set(job.key, p);
      }
      return p;
    };

    const one = async (request: ChatRequest, job: Job): Promise<CallRecord<T>> => {
      const reasks = opts.reasks ?? 0;
      const keep = reasks > 0 || opts.keepUnparsed === true;
      let { call, cached } = await resolve(job, stored, keep);
      // An answer cut by the token limit is asked once more with a larger limit
      // (a cut answer may hide a later revision, so even one that parses is not
      // kept); cut again, it is a parse failure with the raw text.
      const limit = cutAt(call);
      if (parse && limit !== undefined) {
        const base = { ...this.#opts.params, ...request.params };
        request = { ...request, params: { ...base, maxTokens: largerLimit(limit) } };
        const again = this.prepareChat(request);
        const seen = cache
          ? await cache.getMany([again.key], { messages: false })
          : new Map<string, StoredCall>();
        ({ call, cached } = await resolve(again, seen, keep));
      }
      const read = (c: StoredCall): ParseResult<unknown> | undefined => {
        if (!parse || c.status === "failed") return undefined;
        const cut = cutAt(c);
        return cut === undefined ? parse(c.response) : {
          ok: false,
          raw: c.response,
          reason:
            `the answer was cut at max_tokens ${cut}, also after asking again with a larger limit`,
        };
      };
      let parsed = read(call);
      for (let i = 1; i <= reasks && parsed && !parsed.ok; i++) {
        const base = { ...this.#opts.params, ...request.params };
        const again = this.prepareChat({
          ...request,
          params: {
            ...base,
            temperature: opts.reaskTemperature ?? 0.2,
            seed: (base.seed ?? 0) + i,
          },
        });
        const seen = cache
          ? await cache.getMany([again.key], { messages: false })
          : new Map<string, StoredCall>();
        ({ call, cached } = await resolve(again, seen, i < reasks));
        parsed = call.status === "failed" ? parsed : read(call);
      }
      if (cached) {
        hits.set(
          `${call.model}\u0000${call.template ?? ""}`,
          (hits.get(`${call.model}\u0000${call.template ?? ""}`) ?? 0) + 1,
        );
      }
      tracker.finish({ cached, failed: call.status === "failed" });
      return toRecord<T>(call, {
        id: request.id,
        cached,
        parsed: parsed as ParseResult<T> | undefined,
      });
    };

    let records: CallRecord<T>[];
    try {
      records = await Promise.all(requests.map((r, i) => one(r, jobs[i])));
    } catch (error) {
      // Commit what was answered (it is journaled either way); the abort wins.
      await cache?.flush().catch(() => {});
      throw error;
    }
    if (cache) {
      for (const [k, n] of hits) {
        const [model, template] = k.split("\u0000");
        await cache.addHits(model, template, n);
      }
      await cache.flush();
    }
    return records;
  }

  /** Hands a chat job to a batch collector; the caller sees it failed, with a note. */
  #collect(collector: BatchCollector, job: Job): StoredCall {
    const { body } = job as Job & { body: Record<string, unknown> };
    const base = {
      key: job.key,
      model: job.model,
      endpoint: `${this.endpoint} batch`,
      template: job.template,
      params: job.params,
      messages: job.messages,
      response: "",
      usage: { promptTokens: 0, completionTokens: 0 },
      attempts: 0,
      latencyMs: 0,
    };
    const pending: StoredCall = { ...base, status: "pending" };
    if (job.topLogprobs !== undefined) pending.logprobs = { topK: job.topLogprobs, tokens: null };
    collector.add({ key: job.key, body, pending });
    return { ...base, status: "failed", error: EXPORTED_NOTE };
  }

  async #single(job: Job, signal?: AbortSignal): Promise<StoredCall> {
    const cache = this.#opts.cache;
    const prior = await cache?.get(job.key);
    if (prior?.status === "ok") {
      await cache?.addHits(prior.model, prior.template ?? "", 1);
      return prior;
    }
    const call = await runJob(job, this.#context(signal), { prior });
    await cache?.flush();
    if (call.status === "failed") {
      throw new Error(
        `Model call to ${this.endpoint} (${job.kind}, model "${job.model}") failed: ${call.error}`,
      );
    }
    return call;
  }

  /**
   * Embeds texts through `/embeddings`, in cached batches of `embedBatchSize`.
   *
   * @param texts Texts to embed.
   * @param opts `model` (default: the client's) and `signal`.
   * @returns One vector per text, in order.
   * @throws {Error} When a batch fails after its retries.
   */
  async embed(
    texts: readonly string[],
    opts: { model?: string; signal?: AbortSignal } = {},
  ): Promise<number[][]> {
    const size = this.#opts.embedBatchSize ?? 64;
    const out: number[][] = [];
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += size) batches.push(texts.slice(i, i + size));
    const results = await Promise.all(batches.map((input) => {
      const job = embedJob(this.#transport, opts.model ?? this.model, input, this.#opts.timeoutMs);
      return this.#single(job, opts.signal);
    }));
    for (const r of results) out.push(...(JSON.parse(r.response) as number[][]));
    return out;
  }

  /**
   * Scores documents for a query with a cross-encoder: `/rerank` (Cohere, Jina,
   * vLLM, TEI answers) or `/score` (vLLM).
   *
   * @param query The query.
   * @param documents Documents to score.
   * @param opts `api` (`rerank` default, or `score`), `path` (default `/rerank` or `/score`
   *   relative to the base URL), `model`, `signal`.
   * @returns Scores in document order.
   * @throws {Error} When the call fails after its retries or the answer has no scores.
   */
  async rerank(
    query: string,
    documents: readonly string[],
    opts: { api?: "rerank" | "score"; path?: string; model?: string; signal?: AbortSignal } = {},
  ): Promise<number[]> {
    const job = rerankJob(this.#transport, {
      api: opts.api ?? "rerank",
      path: opts.path,
      model: opts.model ?? this.model,
      query,
      documents: [...documents],
      timeoutMs: this.#opts.timeoutMs,
    });
    const call = await this.#single(job, opts.signal);
    return JSON.parse(call.response) as number[];
  }
}
