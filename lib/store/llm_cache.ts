/**
 * Reads and writes of the model-call cache: the tables `llm_calls` (one row per
 * call) and `llm_logprobs` (the first tokens' log-probabilities of the calls that
 * asked for them), and the cache-hit counters kept in `meta`. The DDL is in
 * `schema.ts`; the call cache of `@lib/llm` is the only writer.
 *
 * @module
 */
import type { DuckDBAppender, DuckDBConnection } from "@duckdb/node-api";
import { TABLES } from "./schema.ts";

/** One alternative token and its log-probability. */
export interface TokenAlternative {
  token: string;
  logprob: number;
}

/** One generated token: its text, its log-probability and the most likely alternatives. */
export interface TokenLogprob extends TokenAlternative {
  /** The `top_logprobs` most likely tokens at this position, most likely first. */
  top: TokenAlternative[];
}

/**
 * The log-probabilities stored with a call that asked for them: `topK` is the
 * `top_logprobs` asked, `tokens` the first generated tokens, or `null` when the
 * endpoint returned none (it does not support them).
 */
export interface CallLogprobs {
  topK: number;
  tokens: TokenLogprob[] | null;
}

/** One row of `llm_calls` (with its `llm_logprobs` row), camelCase. */
export interface LlmCallRow {
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
  /** Token usage; `null` = unknown. */
  usage: { promptTokens: number | null; completionTokens: number | null };
  /** `ok`, `unparsed`, `failed` or `pending`. */
  status: string;
  error?: string;
  attempts: number;
  latencyMs: number;
  /** Present when the call asked for log-probabilities. */
  logprobs?: CallLogprobs;
}

/** Per model, template and status: counts and token sums of stored calls, with cache hits. */
export interface LlmCallStatsRow {
  model: string;
  template: string;
  status: string;
  calls: number;
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  /** Cache hits recorded for this model and template (same value on every status row). */
  hits: number;
}

/** A staging table of one cache, created on its first write (see {@link writeLlmCalls}). */
export interface LlmCallStage {
  readonly name: string;
  created: boolean;
}

const COLUMNS =
  "key, model, endpoint, template, params, messages, response, usage, status, error, attempts, latency_ms";
/** Rows appended to a stage at a time (about 2 MB of 8,000-character prompts). */
const STAGE_SLICE = 250;
const HITS = "llm.cache_hits|";
let stageCount = 0;

/**
 * Creates `llm_calls`, `llm_logprobs` and `meta` when missing.
 *
 * @param connection An open DuckDB connection.
 */
export async function createLlmCacheTables(connection: DuckDBConnection): Promise<void> {
  await createCallsTable(connection);
  await connection.run(TABLES.llm_logprobs);
}

/**
 * The `meta` key recording that `llm_calls` was created as the schema declares
 * it now, with ZSTD for its prompts and answers. DuckDB keeps a column's
 * compression in its catalog but shows it nowhere short of reading the storage
 * of every segment (about 11 s for a cache of a million calls), so the table's
 * creation is recorded beside it.
 */
export const CALLS_ZSTD_KEY = "llm_calls_compression";

/**
 * Creates `meta` and `llm_calls` when missing, recording in `meta` that
 * `llm_calls` was created with ZSTD ({@linkcode CALLS_ZSTD_KEY}) in the
 * transaction that creates it.
 *
 * @param connection An open DuckDB connection, not inside a transaction.
 */
export async function createCallsTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(TABLES.meta);
  if (await hasCallsTable(connection)) return;
  await connection.run("BEGIN TRANSACTION");
  try {
    await connection.run(TABLES.llm_calls);
    await connection.run("INSERT OR REPLACE INTO meta VALUES ($1, 'zstd')", [CALLS_ZSTD_KEY]);
    await connection.run("COMMIT");
  } catch (error) {
    await connection.run("ROLLBACK").catch(() => {});
    throw error;
  }
}

async function hasCallsTable(connection: DuckDBConnection): Promise<boolean> {
  const rows = (await connection.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables()
       WHERE database_name = current_database() AND table_name = 'llm_calls'`,
  )).getRowsJS();
  return Number(rows[0][0]) > 0;
}

/**
 * Whether the call cache (`llm_calls`) was created before its schema asked for
 * ZSTD, so that its prompts and answers are stored with DuckDB's default string
 * compression (dictionary and FSST, about six times the CPU at each checkpoint,
 * and a larger file): the table exists and `meta` does not record
 * {@linkcode CALLS_ZSTD_KEY}.
 *
 * @param connection An open connection whose current database holds the cache.
 * @returns True when `crux workspace migrate` would recreate the cache with ZSTD.
 */
export async function callsNeedZstd(connection: DuckDBConnection): Promise<boolean> {
  if (!(await hasCallsTable(connection))) return false;
  const meta = (await connection.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables()
       WHERE database_name = current_database() AND table_name = 'meta'`,
  )).getRowsJS();
  if (Number(meta[0][0]) === 0) return true;
  const rows = (await connection.runAndReadAll(
    "SELECT count(*) FROM meta WHERE key = $1 AND value = 'zstd'",
    [CALLS_ZSTD_KEY],
  )).getRowsJS();
  return Number(rows[0][0]) === 0;
}

/**
 * A new staging table name for one cache's group writes (a temp table, unique per process).
 *
 * @returns The stage, not created yet.
 */
export function newLlmCallStage(): LlmCallStage {
  return { name: `llm_calls_stage_${++stageCount}`, created: false };
}

/** Appends the columns `key` .. `latency_ms` of a call. */
function appendFields(a: DuckDBAppender, c: LlmCallRow): void {
  a.appendVarchar(c.key);
  a.appendVarchar(c.model);
  a.appendVarchar(c.endpoint);
  if (c.template == null) a.appendNull();
  else a.appendVarchar(c.template);
  a.appendVarchar(JSON.stringify(c.params));
  a.appendVarchar(JSON.stringify(c.messages));
  a.appendVarchar(c.response);
  a.appendVarchar(JSON.stringify(c.usage));
  a.appendVarchar(c.status);
  if (c.error == null) a.appendNull();
  else a.appendVarchar(c.error);
  a.appendInteger(c.attempts);
  a.appendDouble(c.latencyMs);
}

/** Appends a call to a stage (its columns, then its log-probabilities). */
function appendRow(a: DuckDBAppender, c: LlmCallRow): void {
  appendFields(a, c);
  if (c.logprobs == null) a.appendNull();
  else a.appendVarchar(JSON.stringify(c.logprobs));
  a.endRow();
}

function fromRow(r: Record<string, unknown>): LlmCallRow {
  return {
    key: String(r.key),
    model: String(r.model),
    endpoint: String(r.endpoint ?? ""),
    template: r.template == null ? undefined : String(r.template),
    params: JSON.parse(String(r.params ?? "{}")),
    messages: JSON.parse(String(r.messages ?? "null")),
    response: String(r.response ?? ""),
    usage: JSON.parse(String(r.usage ?? '{"promptTokens":0,"completionTokens":0}')),
    status: String(r.status),
    error: r.error == null ? undefined : String(r.error),
    attempts: Number(r.attempts ?? 0),
    latencyMs: Number(r.latency_ms ?? 0),
  };
}

/**
 * Reads stored calls by key (10,000 keys per query), with their log-probabilities.
 *
 * @param connection An open DuckDB connection with the cache tables.
 * @param keys Cache keys, without duplicates.
 * @param opts `messages: false` leaves the prompts out (`messages` is null in the rows).
 * @returns Map from key to row, for the keys found.
 */
export async function readLlmCalls(
  connection: DuckDBConnection,
  keys: readonly string[],
  opts: { messages?: boolean } = {},
): Promise<Map<string, LlmCallRow>> {
  const found = new Map<string, LlmCallRow>();
  // Reading the prompts too costs about ten times more on a large cache, and
  // answering a call from the cache does not need them.
  const messages = opts.messages === false ? "NULL" : "c.messages::VARCHAR";
  // Joining the log-probabilities into the lookup made it three to four times
  // slower on a large cache; most caches hold none, and the others are read apart.
  const logprobs = (await connection.runAndReadAll(
    "SELECT EXISTS (SELECT 1 FROM llm_logprobs)",
  )).getRows()[0][0] === true;
  for (let i = 0; i < keys.length; i += LOOKUP_KEYS) {
    const part = keys.slice(i, i + LOOKUP_KEYS);
    const reader = await connection.runAndReadAll(
      `SELECT c.key, c.model, c.endpoint, c.template, c.params::VARCHAR AS params,
         ${messages} AS messages, c.response, c.usage::VARCHAR AS usage, c.status,
         c.error, c.attempts, c.latency_ms
       FROM llm_calls c SEMI JOIN (${KEY_LIST}) q ON c.key = q.k`,
      [JSON.stringify(part)],
    );
    const rows = reader.getRowObjectsJS();
    for (const row of rows) found.set(String(row.key), fromRow(row));
    if (!logprobs || rows.length === 0) continue;
    const lp = await connection.runAndReadAll(
      `SELECT l.key, l.logprobs::VARCHAR FROM llm_logprobs l SEMI JOIN (${KEY_LIST}) q
         ON l.key = q.k WHERE l.logprobs IS NOT NULL`,
      [JSON.stringify(rows.map((r) => String(r.key)))],
    );
    for (const [key, value] of lp.getRowsJS()) {
      found.get(String(key))!.logprobs = JSON.parse(String(value));
    }
  }
  return found;
}

/**
 * Keys looked up per query. A lookup is one scan of the key column joined with
 * the keys passed as one JSON list, where `IN` lists made DuckDB scan the table
 * once per list of 500: on a cache of 1.5 million calls, 10,000 absent keys take
 * about 40 ms against 240 ms (`tests/bench/cache_lookup.ts`).
 */
const LOOKUP_KEYS = 10_000;

/** The keys of a lookup, bound as one JSON list of strings (`$1`), as a relation `q(k)`. */
const KEY_LIST = "SELECT unnest($1::JSON::VARCHAR[]) AS k";

/**
 * Writes calls in one group: appends them to the stage (in slices, letting other
 * work run between them), then replaces their rows of `llm_calls` (stamped
 * `created_at = now()`) and of `llm_logprobs` (a call written without
 * log-probabilities drops the ones of the answer it replaces) on the database's
 * threads.
 *
 * @param connection An open DuckDB connection with the cache tables.
 * @param rows Calls to write, one per key.
 * @param stage The cache's staging table ({@link newLlmCallStage}); created on first use.
 */
export async function writeLlmCalls(
  connection: DuckDBConnection,
  rows: readonly LlmCallRow[],
  stage: LlmCallStage,
): Promise<void> {
  if (rows.length === 0) return;
  await prepareStage(connection, stage);
  // The appender runs on the caller's thread: a large group appended at once would
  // stall the calls whose answers arrive meanwhile.
  for (let i = 0; i < rows.length; i += STAGE_SLICE) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const appender = await connection.createAppender(stage.name, "main", "temp");
    try {
      for (const row of rows.slice(i, i + STAGE_SLICE)) appendRow(appender, row);
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }
  await replaceFromStage(connection, stage);
}

/** The columns of a journal line (a call as JSON, camelCase) as DuckDB reads them. */
const JOURNAL_COLUMNS = "{key: 'VARCHAR', model: 'VARCHAR', endpoint: 'VARCHAR', " +
  "template: 'VARCHAR', params: 'JSON', messages: 'JSON', response: 'VARCHAR', " +
  "usage: 'JSON', status: 'VARCHAR', error: 'VARCHAR', attempts: 'INTEGER', " +
  "latencyMs: 'DOUBLE', logprobs: 'JSON'}";

/**
 * How {@linkcode writeLlmCallsFromJournal} wrote a group: `"inserted"` straight
 * from the files into `llm_calls` (every key new, no log-probabilities),
 * `"replaced"` through the stage, `"reread"` through the stage after the
 * straight insert failed (a key was already stored: the files were read twice),
 * or `false` when it wrote nothing.
 */
export type JournalWrite = "inserted" | "replaced" | "reread" | false;

/**
 * Writes calls in one group from the journal files that hold them, one call per
 * JSON line: DuckDB reads the files on its own threads, so the caller's thread
 * converts nothing (with {@linkcode writeLlmCalls} it appends every value).
 *
 * A group whose keys are all new and that has no log-probabilities (the usual
 * case: answers to calls the cache did not have) is inserted straight from the
 * files in one statement, about 40% less of DuckDB's time for long prompts than
 * going through the stage, which copies every row once more. Otherwise (a key
 * already stored, a call with log-probabilities) the rows go through the stage
 * and replace theirs as `writeLlmCalls` replaces them.
 *
 * Writes nothing and returns false when the files do not hold exactly
 * `expected` calls with distinct keys, or DuckDB cannot read them (a line it
 * rejects, such as a lone UTF-16 surrogate, or a line over DuckDB's 16 MB
 * object limit): the caller then writes the calls with `writeLlmCalls`.
 *
 * @param connection An open DuckDB connection with the cache tables.
 * @param files Journal files, each line one call (`JSON.stringify` of a {@linkcode LlmCallRow}).
 * @param expected The number of calls the files must hold, each key once.
 * @param stage The cache's staging table ({@link newLlmCallStage}).
 * @param opts `insert: false` skips the attempt to insert straight from the
 *   files, for a group known to hold log-probabilities or stored keys (the
 *   attempt would fail, and the files be read again).
 * @returns How the calls were written; false if they were not.
 */
export async function writeLlmCallsFromJournal(
  connection: DuckDBConnection,
  files: readonly string[],
  expected: number,
  stage: LlmCallStage,
  opts: { insert?: boolean } = {},
): Promise<JournalWrite> {
  if (files.length === 0 || expected === 0) return false;
  const source = `read_json([${
    files.map((f) => `'${f.replaceAll("'", "''")}'`).join(", ")
  }], format = 'newline_delimited', columns = ${JOURNAL_COLUMNS})`;
  const attempted = opts.insert !== false;
  if (attempted && await insertFromJournal(connection, source, expected)) return "inserted";
  await prepareStage(connection, stage);
  try {
    await connection.run(
      `INSERT INTO temp.${stage.name}
         SELECT key, model, endpoint, template, params, messages, response, usage, status,
           error, attempts, latencyMs, logprobs
         FROM ${source}`,
    );
  } catch {
    await prepareStage(connection, stage);
    return false;
  }
  const counts = (await connection.runAndReadAll(
    `SELECT count(*)::INTEGER, count(DISTINCT key)::INTEGER FROM temp.${stage.name}`,
  )).getRows()[0];
  if (counts[0] !== expected || counts[1] !== expected) {
    await prepareStage(connection, stage);
    return false;
  }
  await replaceFromStage(connection, stage);
  return attempted ? "reread" : "replaced";
}

/**
 * Inserts a group straight from its journal files, in one statement that
 * inserts all of it or nothing: the files are read once (materialized), and
 * their rows are inserted only if there are exactly `expected` of them and none
 * has log-probabilities. A key given twice or already in `llm_calls` breaks the
 * primary key, and the statement fails.
 *
 * With no `llm_calls` row for any of the keys there is no `llm_logprobs` row for
 * them either (the two are only ever written together), so nothing stale is left.
 *
 * @returns Whether the group was inserted.
 */
async function insertFromJournal(
  connection: DuckDBConnection,
  source: string,
  expected: number,
): Promise<boolean> {
  try {
    const result = await connection.run(
      `INSERT INTO llm_calls (${COLUMNS}, created_at)
         WITH j AS MATERIALIZED (SELECT * FROM ${source})
         SELECT key, model, endpoint, template, params, messages, response, usage, status,
           error, attempts, latencyMs, now()
         FROM j
         WHERE (SELECT count(*) FROM j) = $1
           AND NOT EXISTS (SELECT 1 FROM j WHERE logprobs IS NOT NULL)`,
      [expected],
    );
    return result.rowsChanged === expected;
  } catch {
    return false; // a key given twice or already stored, or a file DuckDB cannot read
  }
}

/**
 * Creates the stage empty, replacing the previous one. Emptying it by DELETE
 * would keep the deleted rows' long strings in memory for as long as the
 * process lives (DuckDB does not reclaim them in a temporary table): over a
 * million-call run, every prompt ever written.
 */
async function prepareStage(connection: DuckDBConnection, stage: LlmCallStage): Promise<void> {
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${stage.name} (key VARCHAR, model VARCHAR,
       endpoint VARCHAR, template VARCHAR, params JSON, messages JSON,
       response VARCHAR, usage JSON, status VARCHAR, error VARCHAR,
       attempts INTEGER, latency_ms DOUBLE, logprobs JSON)`,
  );
  stage.created = true;
}

/** Replaces the stage's rows of `llm_calls` and `llm_logprobs`, then empties the stage (anew). */
async function replaceFromStage(connection: DuckDBConnection, stage: LlmCallStage): Promise<void> {
  await connection.run(
    `INSERT OR REPLACE INTO llm_calls (${COLUMNS}, created_at)
       SELECT ${COLUMNS}, now() FROM temp.${stage.name}`,
  );
  // Most caches never ask for log-probabilities: skip the delete when there are none.
  const any = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM llm_logprobs) OR
       EXISTS (SELECT 1 FROM temp.${stage.name} WHERE logprobs IS NOT NULL)`,
  );
  if (any.getRows()[0][0] === true) {
    await connection.run(
      `DELETE FROM llm_logprobs WHERE key IN (SELECT key FROM temp.${stage.name})`,
    );
    await connection.run(
      `INSERT INTO llm_logprobs (key, logprobs)
         SELECT key, logprobs FROM temp.${stage.name} WHERE logprobs IS NOT NULL`,
    );
  }
  await prepareStage(connection, stage);
}

/**
 * Adds to the cache-hit counter of a model and template (kept in `meta`).
 *
 * @param connection An open DuckDB connection with `meta`.
 * @param model Model name.
 * @param template Template `id@version` or `""`.
 * @param hits Number of hits to add (positive).
 */
export async function addLlmCacheHits(
  connection: DuckDBConnection,
  model: string,
  template: string,
  hits: number,
): Promise<void> {
  await connection.run(
    `INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE
       SET value = CAST(CAST(meta.value AS BIGINT) + CAST(excluded.value AS BIGINT) AS VARCHAR)`,
    [`${HITS}${model}|${template}`, String(hits)],
  );
}

/**
 * Aggregates the stored calls per model, template and status, with cache hits.
 *
 * @param connection An open DuckDB connection with the cache tables.
 * @returns One row per (model, template, status), sorted by them.
 */
export async function readLlmCallStats(connection: DuckDBConnection): Promise<LlmCallStatsRow[]> {
  const reader = await connection.runAndReadAll(
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
    status: String(r.status),
    calls: Number(r.calls),
    attempts: Number(r.attempts),
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
    latencyMs: Number(r.latency_ms),
    hits: Number(r.hits),
  }));
}
