/**
 * The experiment workspace: one DuckDB file (`<dir>/workspace.duckdb`) holding every
 * table of `schema.ts`, with camelCase records in and out.
 *
 * @module
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from "@duckdb/node-api";
import { AsyncLocalStorage } from "node:async_hooks";
import { join, resolve } from "node:path";
import type {
  Assignment,
  Document,
  Generation,
  MeasureRow,
  Passage,
  Qrel,
  Question,
  Rating,
  RunRow,
  Topic,
} from "@lib/types/mod.ts";
import { insertRecords, upsertBatches, upsertRecords } from "./_bulk.ts";
import { rowObjects, type TableInfo } from "./_columns.ts";
import { copyTable, type ExportFormat, type ExportOptions, writeTrec } from "./_export.ts";
import { readers, type ReadFilter } from "./_readers.ts";
import { explainStorageError } from "./storage_error.ts";
import { RATED_ITEMS_SQL, ratedItem } from "./provenance.ts";

export type { ExportFormat, ExportOptions, ReadFilter };

/** Parameters of a query: values for `$1, $2, ...` (or `?`): strings, numbers, booleans, bigints, null. */
export type Params = readonly unknown[];

/**
 * An open workspace (see {@linkcode openWorkspace} in `open_workspace.ts`). Records use camelCase fields (`topicId`); the tables use the
 * snake_case columns (`topic_id`). Query results come back with camelCase keys,
 * BIGINT as number and JSON columns parsed.
 */
export class Workspace {
  #tables: Map<string, TableInfo>;

  /** @internal Use {@linkcode openWorkspace}. */
  constructor(
    /** The workspace folder. */
    readonly dir: string,
    /** The DuckDB connection, for anything the helpers do not cover. */
    readonly connection: DuckDBConnection,
    readonly instance: DuckDBInstance,
    readonly readOnly: boolean,
    tables: Map<string, TableInfo>,
    /** The workspace this one was forked from (see {@linkcode Workspace.fork}). */
    readonly parent?: Workspace,
  ) {
    this.#tables = tables;
    if (!parent) Workspace.#open.set(resolve(dir), this);
    Workspace.#byConnection.set(connection, this);
    Workspace.#counted(dir, 1);
  }

  /** The workspaces by their connections, so code holding a connection finds its queue. */
  static #byConnection = new WeakMap<DuckDBConnection, Workspace>();

  /**
   * The writer queue of the workspace that `connection` belongs to, for code that
   * writes on a workspace's connection directly (the model call cache): `work`
   * runs in a turn of its own, so it never interleaves with the workspace's
   * transactions and staged writes. Undefined for a connection of no open workspace.
   *
   * @param connection A DuckDB connection.
   * @returns A function running work in a turn, or undefined.
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { openWorkspace, Workspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * const turn = Workspace.writerQueueOf(ws.connection)!;
   * assert.equal(await turn(() => ws.connection.run("SELECT 1").then(() => 1)), 1);
   * ws.close();
   * ```
   */
  static writerQueueOf(
    connection: DuckDBConnection,
  ): (<T>(work: () => Promise<T>) => Promise<T>) | undefined {
    const ws = Workspace.#byConnection.get(connection);
    return ws && (<T>(work: () => Promise<T>) => ws.writeTurn(work));
  }

  /**
   * Runs `work` in a turn of its own on this database's one writer queue (after
   * every write queued before it, before every write queued after), for writes
   * made on a connection directly. Inside a transaction of this database it runs
   * at once, as part of it.
   *
   * @param work The writes.
   * @returns What `work` returns.
   */
  writeTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.#activeTransaction()) return work();
    return this.#serial(() => this.#explained(work()));
  }

  /**
   * A second handle on this workspace with a connection of its own: its
   * transactions and temporary tables are its own, so work on it can run beside
   * work on this one (DuckDB isolates the connections' transactions; a write
   * meeting a row another uncommitted transaction wrote fails). Closing the fork
   * closes only its connection; the fork must be closed before this workspace.
   *
   * @returns The fork.
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { importSample, openWorkspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * await importSample(ws, "datasets/sample");
   * const fork = await ws.fork();
   * assert.equal(await fork.count("topics"), await ws.count("topics"));
   * fork.close();
   * ws.close();
   * ```
   */
  async fork(): Promise<Workspace> {
    if (this.#closed) throw new Error(`Cannot fork workspace "${this.dir}": it is closed`);
    const root = this.parent ?? this;
    const connection = await this.#explained(this.instance.connect());
    return new Workspace(this.dir, connection, this.instance, this.readOnly, this.#tables, root);
  }

  /** The workspaces open in this process, by absolute folder. */
  static #open = new Map<string, Workspace>();

  /**
   * The workspace of `dir` when this process has it open (DuckDB allows one
   * open database per file and process), else undefined.
   *
   * @param dir The workspace folder.
   * @returns The open workspace, or undefined.
   */
  static opened(dir: string): Workspace | undefined {
    return Workspace.#open.get(resolve(dir));
  }

  /** Connections of this process not yet closed, by absolute folder. */
  static #connections = new Map<string, number>();

  static #counted(dir: string, change: 1 | -1): void {
    const key = resolve(dir);
    const n = (Workspace.#connections.get(key) ?? 0) + change;
    if (n > 0) Workspace.#connections.set(key, n);
    else Workspace.#connections.delete(key);
  }

  /**
   * How many DuckDB connections this process has open on the workspace of `dir`
   * (the workspace's own, its forks' and those of writes in progress): 0 once
   * every handle is closed, when another process may open the file read-write.
   *
   * @param dir The workspace folder.
   * @returns The number of open connections.
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { openWorkspace, Workspace } from "@lib/store/mod.ts";
   * const dir = await Deno.makeTempDir();
   * const ws = await openWorkspace(dir);
   * const fork = await ws.fork();
   * assert.equal(Workspace.openConnections(dir), 2);
   * fork.close();
   * ws.close();
   * assert.equal(Workspace.openConnections(dir), 0);
   * ```
   */
  static openConnections(dir: string): number {
    return Workspace.#connections.get(resolve(dir)) ?? 0;
  }

  /** The database file. */
  get path(): string {
    return join(this.dir, "workspace.duckdb");
  }

  /**
   * Runs a query and returns its rows as plain objects with camelCase keys
   * (`topic_id` -> `topicId`), BIGINT as number, JSON columns parsed, nulls kept.
   *
   * @param sql SQL with `$1, $2, ...` placeholders.
   * @param params The placeholder values.
   * @returns The rows.
   * @example
   * ```ts
   * import { importSample, openWorkspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * await importSample(ws, "datasets/sample");
   * const rows = await ws.query<{ topicId: string; n: number }>(
   *   "SELECT topic_id, count(*) AS n FROM passages GROUP BY ALL",
   * );
   * ```
   */
  async query<T = Record<string, unknown>>(sql: string, params: Params = []): Promise<T[]> {
    return rowObjects<T>(
      await this.#explained(this.connection.runAndReadAll(sql, params as DuckDBValue[])),
    );
  }

  /** Like `query`, leaving null fields out (for optional record fields). */
  #records = async <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
    rowObjects<T>(
      await this.#explained(this.connection.runAndReadAll(sql, params as DuckDBValue[])),
      true,
    );

  /**
   * Settles like `work`, with a storage fault (a damaged or truncated file, a full
   * disk) explained: a file cut short may open and fail only when a read reaches
   * the missing part.
   */
  #explained<T>(work: Promise<T>): Promise<T> {
    return work.catch((error) => {
      throw explainStorageError(error, this.dir) ?? error;
    });
  }

  /**
   * Runs a statement (DDL, UPDATE, DELETE, ...).
   *
   * @param sql SQL with `$1, $2, ...` placeholders.
   * @param params The placeholder values.
   * @returns The number of rows changed.
   * @example
   * ```ts
   * import { importSample, openWorkspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * await importSample(ws, "datasets/sample");
   * await ws.exec("DELETE FROM runs WHERE run = $1", ["bm25"]);
   * ```
   */
  async exec(sql: string, params: Params = []): Promise<number> {
    const run = () => this.#explained(this.connection.run(sql, params as DuckDBValue[]));
    // Inside a transaction of this database it runs at once (on this handle's
    // connection: the transaction's own, or a fork's beside it); else in a turn of
    // its own on the writer queue, so it never lands inside another caller's
    // transaction on this connection.
    if (this.#activeTransaction()) return (await run()).rowsChanged;
    return (await this.#serial(run)).rowsChanged;
  }

  #table(table: string): TableInfo {
    const info = this.#tables.get(table);
    if (!info) {
      throw new RangeError(
        `Unknown table "${table}" in workspace "${this.dir}"; tables are ${
          [...this.#tables.keys()].join(", ")
        }`,
      );
    }
    return info;
  }

  /**
   * Appends records (camelCase fields) to a table with DuckDB's appender.
   *
   * @param table Table name from `schema.ts`.
   * @param records The records; unknown fields and missing key fields throw.
   * @returns The number of records inserted.
   * @throws {Error} On a duplicate primary key (use `upsert` for re-runs).
   * @example
   * ```ts
   * import { importSample, openWorkspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * await importSample(ws, "datasets/sample");
   * await ws.insert("topics", [{ topicId: "t1", request: "Report on ..." }]);
   * ```
   */
  async insert(table: string, records: readonly object[]): Promise<number> {
    const info = this.#table(table);
    if (records.length === 0) return 0;
    const active = this.#activeTransaction();
    if (active) return await this.#explained(insertRecords(active, info, records));
    return await this.#withWriter((connection) =>
      this.#serial(() => committed(connection, () => insertRecords(connection, info, records)))
    );
  }

  /**
   * Inserts records, replacing rows with the same primary key (last record wins), so
   * re-running an import is idempotent. For `runs` (no key) the rows of every run
   * named in `records` are replaced. The delete and the insert are one commit, made
   * in this call's turn on the process's one writer queue (see `transaction`); the
   * promise resolves after the commit.
   *
   * @param table Table name from `schema.ts`.
   * @param records The records (camelCase fields).
   * @returns The number of rows stored (records repeating a key count once).
   * @example
   * ```ts
   * import { importSample, openWorkspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * await importSample(ws, "datasets/sample");
   * await ws.upsert("meta", [{ key: "note", value: "imported by hand" }]);
   * ```
   */
  async upsert(table: string, records: readonly object[]): Promise<number> {
    const info = this.#table(table);
    // A rating's item is recorded with it, in the same commit: a reader that sees the
    // rating finds its item.
    const also = table === "ratings"
      ? (connection: DuckDBConnection) =>
        this.#recordRatedItems(connection, records as readonly Rating[])
      : undefined;
    const active = this.#activeTransaction();
    if (active) {
      await also?.(active);
      return await this.#explained(upsertRecords(active, info, records));
    }
    // The turn is taken now, so writes made one after the other are stored in that order.
    const turn = this.#reserve();
    try {
      return await this.#withWriter((connection) =>
        upsertRecords(connection, info, records, async (statements) => {
          await turn.ready;
          return await committed(connection, async () => {
            await also?.(connection);
            return await statements();
          });
        })
      );
    } finally {
      turn.release();
    }
  }

  /**
   * Every rating's item is recorded in `rated_items` with its kind (passage,
   * report of a run, reference summary) as it is written, so readers ask the
   * columns, never the id string.
   */
  async #recordRatedItems(
    connection: DuckDBConnection,
    records: readonly Rating[],
  ): Promise<void> {
    const items = new Map<string, object>();
    for (const r of records) {
      const key = `${r.topicId}\u0000${r.itemId}\u0000${r.judge}`;
      if (!items.has(key)) {
        items.set(key, {
          itemId: r.itemId,
          judge: r.judge,
          topicId: r.topicId,
          ...ratedItem(r.itemId, r.topicId),
        });
      }
    }
    if (items.size) {
      await upsertRecords(connection, this.#table("rated_items"), [...items.values()]);
    }
  }

  /**
   * Upserts a stream of records (e.g. a 565k-line corpus) without holding it all:
   * records are staged in batches and merged into the table once at the end, with
   * the same replace rules as `upsert`, in one commit that takes its turn on the
   * writer queue once every record is read.
   *
   * @param table Table name from `schema.ts`.
   * @param records The records, sync or async.
   * @param opts `batchSize` (default 50,000); `onProgress` gets the records read so far.
   * @returns The number of rows stored (records repeating a key count once).
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import type { Passage } from "@lib/types/mod.ts";
   * import { importSample, openWorkspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * await importSample(ws, "datasets/sample");
   * async function* passages(): AsyncIterable<Passage> { // e.g. read line by line from a file
   *   yield { passageId: "t1:d1#1", topicId: "t1", docId: "d1", text: "A first passage." };
   * }
   * assert.equal(await ws.upsertStream("passages", passages()), 1);
   * ```
   */
  async upsertStream(
    table: string,
    records: AsyncIterable<object> | Iterable<object>,
    opts: { batchSize?: number; onProgress?: (rows: number) => void } = {},
  ): Promise<number> {
    const size = opts.batchSize ?? 50_000;
    async function* batches() {
      let batch: object[] = [];
      for await (const record of records) {
        batch.push(record);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      yield batch;
    }
    const info = this.#table(table);
    const active = this.#activeTransaction();
    if (active) {
      const n = await this.#explained(upsertBatches(active, info, batches(), opts.onProgress));
      if (table === "ratings") await this.#explained(active.run(RATED_ITEMS_SQL));
      return n;
    }
    return await this.#withWriter((connection) =>
      upsertBatches(
        connection,
        info,
        batches(),
        opts.onProgress,
        (statements) =>
          this.#serial(() =>
            committed(connection, async () => {
              const n = await statements();
              if (table === "ratings") await connection.run(RATED_ITEMS_SQL);
              return n;
            })
          ),
      )
    );
  }

  /**
   * The writers of this process, per database: the running transaction's connection
   * (`open` until it commits or rolls back: work it started that runs later, such as
   * a group commit it scheduled, is no longer part of it).
   */
  static #transactions = new AsyncLocalStorage<
    { root: Workspace; connection: DuckDBConnection; open: boolean }
  >();

  /** The root workspace (a fork's parent), whose queue every writer of the database joins. */
  get #root(): Workspace {
    return this.parent ?? this;
  }

  /** The connection of a transaction of this database that the caller runs inside, if any. */
  #activeTransaction(): DuckDBConnection | undefined {
    const active = Workspace.#transactions.getStore();
    return active?.root === this.#root && active.open ? active.connection : undefined;
  }

  #queue: Promise<void> = Promise.resolve();

  /**
   * Takes the next turn on this database's one writer queue: `ready` settles when
   * every write queued before has settled; `release` ends the turn (call it once,
   * whatever happens). Turns are served in the order they are taken.
   */
  #reserve(): { ready: Promise<void>; release: () => void } {
    const root = this.#root;
    let release!: () => void;
    const done = new Promise<void>((resolve) => release = resolve);
    const ready = root.#queue;
    root.#queue = ready.then(() => done);
    return { ready, release };
  }

  /** Runs `work` in a turn of its own on the writer queue. */
  async #serial<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#reserve();
    try {
      await turn.ready;
      return await work();
    } finally {
      turn.release();
    }
  }

  /**
   * Runs `work` on a connection of its own (its staging tables and transaction
   * are private to it, and readers on the workspace's connection run beside it),
   * closed afterwards.
   */
  async #withWriter<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.#closed) throw new Error(`Cannot write to workspace "${this.dir}": it is closed`);
    const connection = await this.#explained(this.instance.connect());
    Workspace.#counted(this.dir, 1);
    try {
      return await this.#explained(work(connection));
    } finally {
      connection.closeSync();
      Workspace.#counted(this.dir, -1);
    }
  }

  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws.
   * It waits its turn behind the other writes of this process on the database (every
   * `insert`, `upsert` and `transaction`, on any fork, goes through one queue), and
   * the writes `fn` makes through the workspace are part of it.
   *
   * @param fn The work.
   * @returns What `fn` returns.
   * @example
   * ```ts
   * import { importSample, openWorkspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * await importSample(ws, "datasets/sample");
   * const rows = [{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }];
   * await ws.transaction(async () => {
   *   await ws.exec("DELETE FROM runs");
   *   await ws.insert("runs", rows);
   * });
   * ```
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    // Inside a transaction of this database, the work is part of it.
    if (this.#activeTransaction()) return await fn();
    const root = this.#root;
    const connection = this.connection;
    try {
      const store = { root, connection, open: true };
      return await this.#serial(() =>
        Workspace.#transactions.run(store, async () => {
          try {
            return await committed(connection, fn);
          } finally {
            store.open = false;
          }
        })
      );
    } catch (error) {
      throw explainStorageError(error, this.dir) ?? error;
    }
  }

  /** Number of rows of a table. */
  async count(table: string): Promise<number> {
    this.#table(table);
    const [row] = await this.query<{ n: number }>(`SELECT count(*) AS n FROM "${table}"`);
    return row.n;
  }

  /** All topics, by id. */
  topics(): Promise<Topic[]> {
    return readers.topics(this.#records);
  }
  /** Documents (of one topic), by topic and index. */
  documents(topicId?: string): Promise<Document[]> {
    return readers.documents(this.#records, topicId);
  }
  /** Passages (of one topic), by topic and id. */
  passages(topicId?: string): Promise<Passage[]> {
    return readers.passages(this.#records, topicId);
  }
  /** Questions filtered by `topicId`/`kind`, by topic, kind and ordinal. */
  questions(filter: ReadFilter = {}): Promise<Question[]> {
    return readers.questions(this.#records, filter);
  }
  /** Ratings filtered by `topicId`/`judge`/`itemId`. */
  ratings(filter: ReadFilter = {}): Promise<Rating[]> {
    return readers.ratings(this.#records, filter);
  }
  /** The qrels stored under `name`. */
  qrels(name: string): Promise<Qrel[]> {
    return readers.qrels(this.#records, name);
  }
  /** Names of the stored qrels sets. */
  async qrelsNames(): Promise<string[]> {
    return (await this.query<{ name: string }>("SELECT DISTINCT name FROM qrels ORDER BY name"))
      .map((r) => r.name);
  }
  /** Run rows (of one run), by run, topic and rank. */
  runRows(run?: string): Promise<RunRow[]> {
    return readers.runRows(this.#records, run);
  }
  /** Generations filtered by `run`/`topicId`. */
  generations(filter: ReadFilter = {}): Promise<Generation[]> {
    return readers.generations(this.#records, filter);
  }
  /** Assignments filtered by `run`/`topicId`/`judge`. */
  assignments(filter: ReadFilter = {}): Promise<Assignment[]> {
    return readers.assignments(this.#records, filter);
  }
  /**
   * Rows of the measure table `measures` filtered by `run`/`topicId`/`measure`/
   * `judge`/`source` (`topicId: "all"` for aggregates).
   */
  measures(filter: ReadFilter = {}): Promise<MeasureRow[]> {
    return readers.measures(this.#records, filter);
  }

  /**
   * Writes a table to a file atomically. Parquet, CSV and JSONL keep every column
   * under its camelCase field name; `trec` writes the `runs` table as a TREC run or
   * the `qrels` table as TREC qrels.
   *
   * @param table Table name.
   * @param path Destination file (its folder must exist).
   * @param format `parquet`, `csv`, `jsonl` or `trec`.
   * @param opts For `trec`: `run` (one run) or `name` (one qrels set; required when several are stored).
   * @returns The number of rows written.
   * @throws {RangeError} For `trec` on another table, or qrels without a name when several sets exist.
   * @example
   * ```ts
   * import { importSample, openWorkspace } from "@lib/store/mod.ts";
   * const ws = await openWorkspace(await Deno.makeTempDir());
   * await importSample(ws, "datasets/sample");
   * const dir = await Deno.makeTempDir();
   * await ws.exportTable("measures", `${dir}/measures.parquet`, "parquet");
   * ```
   */
  async exportTable(
    table: string,
    path: string,
    format: ExportFormat,
    opts: ExportOptions = {},
  ): Promise<number> {
    const info = this.#table(table);
    if (format !== "trec") return copyTable(this.connection, info, path, format);
    if (table === "runs") return writeTrec(table, path, await this.runRows(opts.run));
    if (table !== "qrels") {
      throw new RangeError(
        `Cannot export table "${table}" as TREC: only runs and qrels have a TREC format`,
      );
    }
    const names = await this.qrelsNames();
    const name = opts.name ?? (names.length === 1 ? names[0] : undefined);
    if (name === undefined || !names.includes(name)) {
      throw new RangeError(
        `Cannot export qrels ${name ? `"${name}"` : ""}: choose a qrels name among ${
          names.join(", ") || "(none stored)"
        }`,
      );
    }
    return writeTrec(table, path, await this.qrels(name));
  }

  /** Closes the connection and the database (the file lock is released); a fork closes only its connection. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (Workspace.#open.get(resolve(this.dir)) === this) Workspace.#open.delete(resolve(this.dir));
    this.connection.closeSync();
    Workspace.#counted(this.dir, -1);
    if (!this.parent) this.instance.closeSync(); // a fork leaves the database open
  }

  #closed = false;
}

/**
 * Runs `work` between BEGIN and COMMIT on `connection`: committed when it resolves,
 * rolled back when it throws, so its statements are stored together or not at all.
 */
async function committed<T>(connection: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await connection.run("BEGIN TRANSACTION");
  try {
    const result = await work();
    await connection.run("COMMIT");
    return result;
  } catch (error) {
    // A failed ROLLBACK (the database gave up after a fatal write error) must not hide
    // the error that caused it.
    await connection.run("ROLLBACK").catch(() => {});
    throw error;
  }
}
