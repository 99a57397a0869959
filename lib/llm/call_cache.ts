// The model call cache in the workspace (`llm_calls`): answered, unparsed, failed and exported
// calls, looked up by key and written in groups from the answer journal.

import type { DuckDBConnection } from "@duckdb/node-api";
import {
  addLlmCacheHits,
  createLlmCacheTables,
  newLlmCallStage,
  readLlmCalls,
  readLlmCallStats,
  writeLlmCalls,
  writeLlmCallsFromJournal,
} from "@lib/store/llm_cache.ts";
import type { CallLogprobs } from "@lib/store/llm_cache.ts";
import { Workspace } from "@lib/store/workspace.ts";
import type { Usage } from "./types.ts";
import { journalFiles, JournalWriter, readJournal, removeJournalFiles } from "./_journal.ts";
import { BatchCollector } from "./batch_collector.ts";

/** Stored state of a call: answered, answered but unparseable, failed, or exported to a batch. */
export type CallStatus = "ok" | "unparsed" | "failed" | "pending";

/** One row of the `llm_calls` table, camelCase. */
export interface StoredCall {
  key: string;
  model: string;
  /** Base URL and path kind, e.g. `http://host/v1 chat`; never contains credentials. */
  endpoint: string;
  template?: string;
  /** Wire parameters (`temperature`, `top_p`, `max_tokens`, `seed`, `stop`). */
  params: Record<string, unknown>;
  /** Chat messages, or the inputs of embeddings/rerank calls. */
  messages: unknown;
  /** Answer text (chat) or JSON text of the result (other kinds). */
  response: string;
  usage: Usage;
  status: CallStatus;
  error?: string;
  attempts: number;
  latencyMs: number;
  /**
   * Present when the call asked for log-probabilities: the `top_logprobs` asked and the
   * first generated tokens (`null` when the endpoint returned none).
   */
  logprobs?: CallLogprobs;
}

/** Options of {@link CallCache.open}. */
export interface CallCacheOptions {
  /**
   * Path of an append-only answer journal (e.g. `<workspace>/llm_journal.jsonl`).
   * Each answer is appended as it arrives (the answers of one turn of the event
   * loop in one write), and `put` resolves once its line is written: the journal
   * is the durable place. Answers are committed to DuckDB in groups (every
   * `commitRows` answers or `commitMs` milliseconds, and on `flush`); a journal file
   * is deleted once everything in it is committed. Default: none (`put` waits for
   * the commit).
   */
  journal?: string;
  /** With a journal: commit once this many answers wait. Default 2,000. */
  commitRows?: number;
  /** With a journal: commit when the oldest waiting answer is this old. Default 1,000 ms. */
  commitMs?: number;
}

/** Per model, template and status: counts and token sums (see {@link CallCache.stats}). */
export interface CallStatsRow {
  model: string;
  template: string;
  status: CallStatus;
  calls: number;
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  /** Cache hits recorded for this model and template (same value on every status row). */
  hits: number;
}

interface Waiter {
  call: StoredCall;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * The cache and trace of model calls, kept in the workspace table `llm_calls`
 * (DDL from `lib/store/schema.ts`) on a DuckDB connection.
 *
 * Writes are durable per call. With a journal (see {@link CallCacheOptions}),
 * {@link CallCache.put} appends the call to the journal file and resolves when
 * the line is written (within a turn of the event loop), so a kill loses only
 * the calls still on the wire: the journal files a killed process left are
 * folded in when the cache is next opened. Journaled calls are committed to
 * DuckDB in large groups (appender into a staging table, then one `INSERT OR
 * REPLACE`), so many concurrent calls cost one commit each second or two
 * thousand answers. Without a journal, `put` resolves after its
 * row is committed; calls finishing while a commit runs are committed together
 * in the next one (group commit). All statements of one cache run one at a time.
 * On the connection of an open workspace, every write (a group commit, a hit
 * count) takes its turn on the workspace's one writer queue, so it never lands
 * inside a transaction or a staged write of the workspace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DuckDBInstance } from "@duckdb/node-api";
 * import { CallCache } from "@lib/llm/mod.ts";
 * const db = await DuckDBInstance.create(":memory:");
 * const cache = await CallCache.open(await db.connect());
 * await cache.put({ key: "k", model: "m", endpoint: "chat", params: {}, messages: [],
 *   response: "4", usage: { promptTokens: 3, completionTokens: 1 }, status: "ok",
 *   attempts: 1, latencyMs: 12 });
 * assert.equal((await cache.get("k"))?.response, "4");
 * ```
 */
export class CallCache {
  readonly connection: DuckDBConnection;
  /** The journal file, when answers are journaled. */
  readonly journal?: string;
  /** Calls folded in from a journal when the cache was opened. */
  readonly recovered: number;
  #queue: Promise<unknown> = Promise.resolve();
  #pending: Waiter[] = [];
  #scheduled = false;
  #commits = 0;
  #journalCommits = 0;
  #journalInserts = 0;
  #journalRereads = 0;
  /**
   * Keys that lookups found stored as failed or unparsed: the calls callers ask
   * again, whose new answers replace stored rows (so a group holding one goes
   * through the stage rather than trying a straight insert first).
   */
  #stored = new Set<string>();
  /** Journaled calls not committed yet (read by `get` so they are never sent twice). */
  #unflushed = new Map<string, StoredCall>();
  /** Calls a client of this cache is asking right now, by key. */
  #asking = new Map<string, Promise<StoredCall>>();
  #writer?: JournalWriter;
  /** Journal segments whose calls wait for a commit. */
  #segments: string[] = [];
  #oldest = 0;
  #commitRows: number;
  #commitMs: number;
  /** The error of a failed background commit, rethrown by the next `flush`. */
  #failure?: unknown;
  /**
   * Set when a batch export runs on this cache's workspace: unanswered chat
   * requests go to the collector instead of the model (see {@link BatchCollector}).
   */
  readonly collector?: BatchCollector;
  readonly #stage = newLlmCallStage();
  /** Runs writes in a turn of the workspace's writer queue (at once on a bare connection). */
  readonly #turn: <T>(work: () => Promise<T>) => Promise<T>;

  private constructor(
    connection: DuckDBConnection,
    opts: CallCacheOptions = {},
    recovered = 0,
  ) {
    this.connection = connection;
    this.#turn = Workspace.writerQueueOf(connection) ?? ((work) => work());
    this.journal = opts.journal;
    this.recovered = recovered;
    this.#commitRows = opts.commitRows ?? 2000;
    this.#commitMs = opts.commitMs ?? 1000;
    if (opts.journal) this.#writer = new JournalWriter(opts.journal);
    this.collector = BatchCollector.for(opts.journal);
  }

  /**
   * Opens the cache on a connection, creating `llm_calls` and `meta` if missing.
   * With `journal`, calls a killed process left in the journal are committed first.
   *
   * @param connection An open DuckDB connection (e.g. a workspace's `connection`).
   * @param opts `journal`: path of the answer journal; `commitRows`, `commitMs`: group
   *   size and age of journaled commits (see {@link CallCacheOptions}).
   * @returns The cache.
   */
  static async open(connection: DuckDBConnection, opts: CallCacheOptions = {}): Promise<CallCache> {
    const turn = Workspace.writerQueueOf(connection) ?? ((work) => work());
    await turn(() => createLlmCacheTables(connection));
    let recovered = 0;
    if (opts.journal) {
      const files = journalFiles(opts.journal);
      const calls: StoredCall[] = [];
      for (const file of files) calls.push(...(await readJournal(file)).calls);
      if (calls.length) {
        const cache = new CallCache(connection);
        await cache.putMany(calls);
        recovered = new Set(calls.map((c) => c.key)).size;
      }
      removeJournalFiles(files);
    }
    return new CallCache(connection, opts, recovered);
  }

  /**
   * Of {@link CallCache.journalCommits}, those whose straight insert failed (a key
   * was stored already, though no lookup had said so), so that DuckDB read their
   * journal files twice.
   */
  get journalRereads(): number {
    return this.#journalRereads;
  }

  /** Number of commits made so far (one per group of rows written together). */
  get commits(): number {
    return this.#commits;
  }

  /**
   * Commits whose calls DuckDB read from the journal files itself (the others
   * appended them from memory: no journal, or files not holding exactly the group).
   */
  get journalCommits(): number {
    return this.#journalCommits;
  }

  /**
   * Of {@link CallCache.journalCommits}, those inserted straight from the files
   * (every key new, no log-probabilities); the others went through the stage.
   */
  get journalInserts(): number {
    return this.#journalInserts;
  }

  /**
   * The answer of a call that a client of this cache is asking right now, so that
   * another client needing the same call (a stage running beside it) waits for it
   * rather than asking a second time.
   *
   * @param key Cache key.
   * @returns The call's outcome when it is being asked, else undefined.
   */
  asking(key: string): Promise<StoredCall> | undefined {
    return this.#asking.get(key);
  }

  /**
   * Records that `key` is being asked until `call` settles (see {@link CallCache.asking}).
   *
   * @param key Cache key.
   * @param call The call's outcome.
   */
  track(key: string, call: Promise<StoredCall>): void {
    this.#asking.set(key, call);
    const forget = () => {
      if (this.#asking.get(key) === call) this.#asking.delete(key);
    };
    call.then(forget, forget);
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(fn, fn);
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * Reads one call.
   *
   * @param key Cache key.
   * @returns The stored call, or `undefined`.
   */
  async get(key: string): Promise<StoredCall | undefined> {
    return (await this.getMany([key])).get(key);
  }

  /**
   * Reads many calls in a few queries.
   *
   * @param keys Cache keys (duplicates allowed).
   * @param opts `messages: false` reads calls without their prompts (`messages`
   *   null unless the call is still uncommitted), about ten times faster on a
   *   large cache; for answering calls, which never need them.
   * @returns Map from key to stored call, for the keys found.
   */
  getMany(
    keys: readonly string[],
    opts: { messages?: boolean } = {},
  ): Promise<Map<string, StoredCall>> {
    return this.#exclusive(async () => {
      const found = new Map<string, StoredCall>();
      const unique = [...new Set(keys)].filter((k) => {
        const j = this.#unflushed.get(k);
        if (j) found.set(k, j);
        return !j;
      });
      for (const [key, row] of await readLlmCalls(this.connection, unique, opts)) {
        found.set(key, row as StoredCall);
        if (row.status !== "ok") this.#stored.add(key);
      }
      return found;
    });
  }

  /**
   * Stores (or replaces) a call. With a journal it resolves once the call is in
   * the journal (committed to DuckDB later, in a group); without, once its row is
   * committed.
   *
   * @param call The call to store.
   * @returns A promise that settles when the call is durable (rejects if the write fails).
   */
  put(call: StoredCall): Promise<void> {
    if (this.#writer) {
      // Durable once the journal line is written (within a turn of the event loop):
      // a kill from then on loses nothing (the journal is folded in on the next open).
      const written = this.#writer.append(call);
      this.#unflushed.set(call.key, call);
      if (this.#pending.length === 0) this.#oldest = performance.now();
      const waiter = { call, resolve: () => {}, reject: () => {} };
      this.#pending.push(waiter);
      if (
        !this.#scheduled &&
        (this.#pending.length >= this.#commitRows ||
          performance.now() - this.#oldest >= this.#commitMs)
      ) {
        this.#scheduled = true;
        this.#commit().catch(() => {});
      }
      return written.catch((error) => {
        // Not in the journal: not stored, and the caller learns it.
        if (this.#unflushed.get(call.key) === call) this.#unflushed.delete(call.key);
        this.#pending = this.#pending.filter((w) => w !== waiter);
        throw error;
      });
    }
    const done = new Promise<void>((resolve, reject) =>
      this.#pending.push({ call, resolve, reject })
    );
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#commit();
    }
    return done;
  }

  /**
   * Stores many calls in one transaction.
   *
   * @param calls Calls to store; later duplicates of a key win.
   * @returns A promise that settles after the commit.
   */
  async putMany(calls: readonly StoredCall[]): Promise<void> {
    await Promise.all(calls.map((c) => this.put(c)));
    if (this.#writer) await this.flush();
  }

  /**
   * Commits what waits, in a turn of the writer queue taken before the cache's own
   * queue: lookups are not held up while the commit waits for its turn.
   */
  #commit(): Promise<void> {
    return this.#turn(() => this.#exclusive(() => this.#writePending()));
  }

  async #writePending(): Promise<void> {
    this.#scheduled = false;
    // The calls of every journal file written so far are in `batch`.
    const segment = this.#writer?.rotate();
    if (segment) this.#segments.push(segment);
    const segments = [...this.#segments];
    const batch = this.#pending.splice(0);
    if (batch.length === 0 && segments.length === 0) return;
    const byKey = new Map<string, StoredCall>();
    for (const w of batch) byKey.set(w.call.key, w.call);
    try {
      // Journaled calls are read from their journal files by DuckDB itself, which
      // keeps the event loop free for the answers arriving meanwhile; when the
      // files do not hold exactly these calls, they are appended from memory.
      const fromJournal = segments.length > 0 && byKey.size === batch.length &&
        await writeLlmCallsFromJournal(this.connection, segments, batch.length, this.#stage, {
          insert: !batch.some((w) => w.call.logprobs || this.#stored.has(w.call.key)),
        });
      if (!fromJournal) await this.#writeRows([...byKey.values()]);
      this.#commits++;
      if (fromJournal) this.#journalCommits++;
      if (fromJournal === "inserted") this.#journalInserts++;
      if (fromJournal === "reread") this.#journalRereads++;
      for (const key of byKey.keys()) this.#stored.delete(key);
      this.#failure = undefined;
      for (const w of batch) {
        if (this.#unflushed.get(w.call.key) === w.call) this.#unflushed.delete(w.call.key);
        w.resolve();
      }
      if (segments.length) {
        removeJournalFiles(segments);
        this.#segments = this.#segments.filter((s) => !segments.includes(s));
      }
    } catch (error) {
      if (this.#writer) {
        // Still journaled: keep the calls for the next commit and report at `flush`.
        this.#failure = error;
        this.#pending.unshift(...batch);
      }
      for (const w of batch) w.reject(error);
    }
  }

  /** Writes the rows in one group (staging table, then one replace). */
  async #writeRows(rows: readonly StoredCall[]): Promise<void> {
    await writeLlmCalls(this.connection, rows, this.#stage);
  }

  /**
   * Stops journaling without committing: journal files with uncommitted calls stay
   * for the next open to fold in, as after a kill. Call {@link CallCache.flush} first
   * to commit them instead.
   */
  release(): void {
    this.#writer?.release();
  }

  /**
   * Adds to the cache-hit counter of a model and template (kept in `meta`).
   *
   * @param model Model name.
   * @param template Template `id@version` or `""`.
   * @param hits Number of hits to add.
   */
  addHits(model: string, template: string, hits: number): Promise<void> {
    if (hits <= 0) return Promise.resolve();
    return this.#turn(() =>
      this.#exclusive(() => addLlmCacheHits(this.connection, model, template, hits))
    );
  }

  /**
   * Aggregates the stored calls per model, template and status, with cache hits.
   *
   * @returns One row per (model, template, status), sorted.
   */
  async stats(): Promise<CallStatsRow[]> {
    if (this.#writer) await this.flush();
    return await this.#exclusive(async () =>
      (await readLlmCallStats(this.connection)).map((r) => ({
        ...r,
        status: r.status as CallStatus,
      }))
    );
  }

  /**
   * Commits every call stored so far (journaled ones included) and closes the
   * journal's file handle.
   *
   * @returns A promise that settles when everything is committed.
   * @throws The error of a commit that failed (its calls stay in the journal).
   */
  async flush(): Promise<void> {
    if (this.#writer) {
      this.#scheduled = true;
      await this.#commit();
      this.#writer.close();
      if (this.#failure) throw this.#failure;
    } else await this.#exclusive(() => Promise.resolve());
  }
}
