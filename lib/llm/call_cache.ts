import type { DuckDBConnection } from "@duckdb/node-api";
import { TABLES } from "@lib/store/schema.ts";
import type { Usage } from "./types.ts";
import { appendJournal, clearJournal, readJournal } from "./_journal.ts";

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
}

/** Options of {@link CallCache.open}. */
export interface CallCacheOptions {
  /**
   * Path of an append-only answer journal (e.g. `<workspace>/llm_journal.jsonl`).
   * Each answer is appended the moment it arrives and committed to DuckDB in
   * groups; the journal is emptied once everything in it is committed. Default:
   * none (`put` waits for the commit).
   */
  journal?: string;
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

const COLUMNS =
  "key, model, endpoint, template, params, messages, response, usage, status, error, attempts, latency_ms, created_at";
const ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())";
const CHUNK = 200;
const HITS = "llm.cache_hits|";

interface Waiter {
  call: StoredCall;
  resolve: () => void;
  reject: (e: unknown) => void;
}

const toValues = (c: StoredCall) => [
  c.key,
  c.model,
  c.endpoint,
  c.template ?? null,
  JSON.stringify(c.params),
  JSON.stringify(c.messages),
  c.response,
  JSON.stringify(c.usage),
  c.status,
  c.error ?? null,
  c.attempts,
  c.latencyMs,
];

function fromRow(r: Record<string, unknown>): StoredCall {
  return {
    key: String(r.key),
    model: String(r.model),
    endpoint: String(r.endpoint ?? ""),
    template: r.template == null ? undefined : String(r.template),
    params: JSON.parse(String(r.params ?? "{}")),
    messages: JSON.parse(String(r.messages ?? "null")),
    response: String(r.response ?? ""),
    usage: JSON.parse(String(r.usage ?? '{"promptTokens":0,"completionTokens":0}')),
    status: String(r.status) as CallStatus,
    error: r.error == null ? undefined : String(r.error),
    attempts: Number(r.attempts ?? 0),
    latencyMs: Number(r.latency_ms ?? 0),
  };
}

/**
 * The cache and trace of model calls, kept in the workspace table `llm_calls`
 * (DDL from `lib/store/schema.ts`) on a DuckDB connection.
 *
 * Writes are durable per call. With a journal (see {@link CallCacheOptions}),
 * {@link CallCache.put} appends the call to the journal file the moment it is
 * called, so a kill loses only the calls still on the wire: a journal left by a
 * killed process is folded in when the cache is next opened. `put` resolves
 * after the row is committed to DuckDB (its WAL is written on commit). Calls
 * finishing while a commit runs are committed together in the next statement
 * (group commit), so many concurrent calls cost one commit each few milliseconds
 * rather than one each. All statements of one cache run one at a time.
 *
 * @example
 * ```ts
 * import { DuckDBInstance } from "@duckdb/node-api";
 * import { CallCache } from "@lib/llm/mod.ts";
 * const db = await DuckDBInstance.create(":memory:");
 * const cache = await CallCache.open(await db.connect());
 * await cache.put({ key: "k", model: "m", endpoint: "chat", params: {}, messages: [],
 *   response: "4", usage: { promptTokens: 3, completionTokens: 1 }, status: "ok",
 *   attempts: 1, latencyMs: 12 });
 * (await cache.get("k"))?.response; // "4"
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
  /** Journaled calls not committed yet (read by `get` so they are never sent twice). */
  #unflushed = new Map<string, StoredCall>();

  private constructor(connection: DuckDBConnection, journal?: string, recovered = 0) {
    this.connection = connection;
    this.journal = journal;
    this.recovered = recovered;
  }

  /**
   * Opens the cache on a connection, creating `llm_calls` and `meta` if missing.
   * With `journal`, calls a killed process left in the journal are committed first.
   *
   * @param connection An open DuckDB connection (e.g. a workspace's `connection`).
   * @param opts `journal`: path of the answer journal (see {@link CallCacheOptions}).
   * @returns The cache.
   */
  static async open(connection: DuckDBConnection, opts: CallCacheOptions = {}): Promise<CallCache> {
    await connection.run(TABLES.llm_calls);
    await connection.run(TABLES.meta);
    let recovered = 0;
    if (opts.journal) {
      const { calls } = await readJournal(opts.journal);
      if (calls.length) {
        const cache = new CallCache(connection);
        await cache.putMany(calls);
        recovered = calls.length;
      }
      clearJournal(opts.journal);
    }
    return new CallCache(connection, opts.journal, recovered);
  }

  /** Number of commits made so far (one per group of rows written together). */
  get commits(): number {
    return this.#commits;
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
   * @returns Map from key to stored call, for the keys found.
   */
  getMany(keys: readonly string[]): Promise<Map<string, StoredCall>> {
    return this.#exclusive(async () => {
      const found = new Map<string, StoredCall>();
      const unique = [...new Set(keys)].filter((k) => {
        const j = this.#unflushed.get(k);
        if (j) found.set(k, j);
        return !j;
      });
      for (let i = 0; i < unique.length; i += 500) {
        const part = unique.slice(i, i + 500);
        const reader = await this.connection.runAndReadAll(
          `SELECT key, model, endpoint, template, params::VARCHAR AS params,
             messages::VARCHAR AS messages, response, usage::VARCHAR AS usage, status, error,
             attempts, latency_ms FROM llm_calls WHERE key IN (${part.map(() => "?").join(",")})`,
          part,
        );
        for (const row of reader.getRowObjectsJS()) found.set(String(row.key), fromRow(row));
      }
      return found;
    });
  }

  /**
   * Stores (or replaces) a call; resolves once the row is committed.
   *
   * @param call The call to store.
   * @returns A promise that settles after the commit (rejects if the write fails).
   */
  put(call: StoredCall): Promise<void> {
    if (this.journal) {
      // Durable at once: a kill from here on loses nothing (the journal is folded in
      // on the next open). The caller still waits for the group commit, so the cache
      // never writes on the connection behind the caller's back.
      try {
        appendJournal(this.journal, call);
      } catch (error) {
        return Promise.reject(error);
      }
      this.#unflushed.set(call.key, call);
    }
    const done = new Promise<void>((resolve, reject) =>
      this.#pending.push({ call, resolve, reject })
    );
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#exclusive(() => this.#writePending());
    }
    return done;
  }

  /**
   * Stores many calls in one transaction.
   *
   * @param calls Calls to store; later duplicates of a key win.
   * @returns A promise that settles after the commit.
   */
  putMany(calls: readonly StoredCall[]): Promise<void> {
    return Promise.all(calls.map((c) => this.put(c))).then(() => {});
  }

  async #writePending(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending.splice(0);
    const byKey = new Map<string, StoredCall>();
    for (const w of batch) byKey.set(w.call.key, w.call);
    const rows = [...byKey.values()];
    try {
      const multi = rows.length > CHUNK;
      if (multi) await this.connection.run("BEGIN TRANSACTION");
      for (let i = 0; i < rows.length; i += CHUNK) {
        const part = rows.slice(i, i + CHUNK);
        await this.connection.run(
          `INSERT OR REPLACE INTO llm_calls (${COLUMNS}) VALUES ${part.map(() => ROW).join(",")}`,
          part.flatMap(toValues),
        );
      }
      if (multi) await this.connection.run("COMMIT");
      this.#commits++;
      for (const w of batch) {
        if (this.#unflushed.get(w.call.key) === w.call) this.#unflushed.delete(w.call.key);
        w.resolve();
      }
      // Everything journaled is committed: start the journal afresh.
      if (this.journal && this.#unflushed.size === 0 && this.#pending.length === 0) {
        clearJournal(this.journal);
      }
    } catch (error) {
      if (rows.length > CHUNK) await this.connection.run("ROLLBACK").catch(() => {});
      for (const w of batch) w.reject(error);
    }
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
    return this.#exclusive(async () => {
      await this.connection.run(
        `INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE
           SET value = CAST(CAST(meta.value AS BIGINT) + CAST(excluded.value AS BIGINT) AS VARCHAR)`,
        [`${HITS}${model}|${template}`, String(hits)],
      );
    });
  }

  /**
   * Aggregates the stored calls per model, template and status, with cache hits.
   *
   * @returns One row per (model, template, status), sorted.
   */
  stats(): Promise<CallStatsRow[]> {
    return this.#exclusive(async () => {
      const reader = await this.connection.runAndReadAll(
        `WITH c AS (
           SELECT model, coalesce(template, '') AS template, status, count(*)::DOUBLE AS calls,
             sum(attempts)::DOUBLE AS attempts,
             sum(coalesce(TRY_CAST(usage->>'promptTokens' AS DOUBLE), 0)) AS prompt_tokens,
             sum(coalesce(TRY_CAST(usage->>'completionTokens' AS DOUBLE), 0)) AS completion_tokens,
             sum(latency_ms)::DOUBLE AS latency_ms
           FROM llm_calls GROUP BY ALL),
         h AS (
           SELECT split_part(key, '|', 2) AS model, split_part(key, '|', 3) AS template,
             CAST(value AS DOUBLE) AS hits FROM meta WHERE starts_with(key, ?))
         SELECT c.*, coalesce(h.hits, 0) AS hits FROM c
           LEFT JOIN h ON c.model = h.model AND c.template = h.template
         ORDER BY c.model, c.template, c.status`,
        [HITS],
      );
      return reader.getRowObjectsJS().map((r) => ({
        model: String(r.model),
        template: String(r.template),
        status: String(r.status) as CallStatus,
        calls: Number(r.calls),
        attempts: Number(r.attempts),
        promptTokens: Number(r.prompt_tokens),
        completionTokens: Number(r.completion_tokens),
        latencyMs: Number(r.latency_ms),
        hits: Number(r.hits),
      }));
    });
  }

  /**
   * Waits until every write issued so far is committed.
   *
   * @returns A promise that settles when the queue is empty.
   */
  async flush(): Promise<void> {
    await this.#exclusive(() => Promise.resolve());
  }
}
