/**
 * The workspace's one memo, table `memo`: what was computed from what. Each row
 * is a keyed record (kind, key) -> fingerprint, with a small JSON payload and
 * the time the fingerprint was recorded. Three kinds use it:
 *
 * - `stage`: one row per stage instance of the pipeline (key `retrieve:bm25`).
 *   The fingerprint covers the instance's id, code version, parameters and the
 *   fingerprints of the instances it reads (prefix `incomplete:` when items
 *   failed, so it never matches); the payload holds `{ stage, params, summary }`.
 *   Only the stage runner writes it; `clear` closures read the parameters.
 * - `measure`: the measure step's memo of one run and passage judge (key
 *   `["<run>","<judge>"]`). The fingerprint hashes the rows the values are
 *   computed from (see `readMeasureInputFingerprints`); the payload is the run
 *   summary and the topics left out per measure key, which `measures` has no
 *   columns for.
 * - `file`: a value computed from an input file's bytes (key
 *   `["<what>","<absolute path>"]`, e.g. `sha256`); the fingerprint is the file's
 *   identity (size, modification and status-change times, inode, device).
 *
 * @module
 */
import { join } from "node:path";
import type { WorkspaceLike } from "./workspace_reads.ts";
import { Workspace } from "./workspace.ts";
import { openWorkspace } from "./open_workspace.ts";

/** The kinds of memo records. */
export type MemoKind = "stage" | "measure" | "file";

/** One record of `memo`. */
export interface MemoRecord<P = unknown> {
  kind: MemoKind;
  key: string;
  /** The fingerprint of what the record was computed from; null when none was recorded. */
  fingerprint: string | null;
  /** The payload (parsed JSON), undefined when none. */
  payload: P | undefined;
  /** When the fingerprint was recorded. */
  recordedAt: Date;
}

/** Which records of one kind {@linkcode readMemo} and {@linkcode clearMemo} take. */
export interface MemoFilter {
  /** Only this key. */
  key?: string;
  /** Only keys starting with this text. */
  keyPrefix?: string;
}

function where(kind: MemoKind, f: MemoFilter): { sql: string; params: unknown[] } {
  const parts = ["kind = $1"];
  const params: unknown[] = [kind];
  if (f.key !== undefined) {
    params.push(f.key);
    parts.push(`key = $${params.length}`);
  }
  if (f.keyPrefix !== undefined) {
    params.push(f.keyPrefix);
    parts.push(`starts_with(key, $${params.length})`);
  }
  return { sql: parts.join(" AND "), params };
}

/**
 * The memo records of one kind, all or filtered by key, by key.
 *
 * @param ws The workspace.
 * @param kind The kind (`stage`, `measure`, `file`).
 * @param f Only one key, or keys with a prefix.
 * @returns Key -> record.
 * @example
 * ```ts
 * import { openWorkspace, readMemo } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * (await readMemo(ws, "stage")).get("retrieve:bm25")?.fingerprint; // undefined: never ran
 * ```
 */
export async function readMemo<P = unknown>(
  ws: WorkspaceLike,
  kind: MemoKind,
  f: MemoFilter = {},
): Promise<Map<string, MemoRecord<P>>> {
  const w = where(kind, f);
  const rows = await ws.query<MemoRecord<P> & { payload: P | null }>(
    `SELECT kind, key, fingerprint, payload, recorded_at FROM memo WHERE ${w.sql} ORDER BY key`,
    w.params,
  );
  return new Map(rows.map((r) => [r.key, { ...r, payload: r.payload ?? undefined }]));
}

/** A record to write with {@linkcode writeMemo}. */
export interface MemoWrite {
  kind: MemoKind;
  key: string;
  /**
   * The new fingerprint, recorded at `recordedAt`. Omitted: the recorded
   * fingerprint and its time stay (only the payload is replaced).
   */
  fingerprint?: string;
  /** When the fingerprint was recorded. Default now. */
  recordedAt?: Date;
  /** The payload (JSON-serialisable); omitted: none. */
  payload?: unknown;
}

/**
 * Records (or replaces) a memo record. Without a fingerprint, an existing
 * record keeps its fingerprint and time and only its payload is replaced.
 *
 * @param ws The workspace.
 * @param r The record.
 * @example
 * ```ts
 * import { openWorkspace, writeMemo } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await writeMemo(ws, { kind: "file", key: '["sha256","/data/a.jsonl"]', fingerprint: "3:1:1:7:2", payload: "ab12" });
 * ```
 */
export async function writeMemo(ws: WorkspaceLike, r: MemoWrite): Promise<void> {
  await ws.exec(
    `INSERT INTO memo (kind, key, fingerprint, payload, recorded_at)
     VALUES ($1, $2, $3, $4::JSON, epoch_ms($5::BIGINT))
     ON CONFLICT (kind, key) DO UPDATE SET
       payload = excluded.payload,
       fingerprint = coalesce(excluded.fingerprint, fingerprint),
       recorded_at = CASE WHEN excluded.fingerprint IS NULL THEN recorded_at
                     ELSE excluded.recorded_at END`,
    [
      r.kind,
      r.key,
      r.fingerprint ?? null,
      r.payload === undefined ? null : JSON.stringify(r.payload),
      (r.recordedAt ?? new Date()).getTime(),
    ],
  );
}

/**
 * Deletes memo records of one kind: all, one key, or the keys with a prefix.
 *
 * @param ws The workspace.
 * @param kind The kind.
 * @param f Only one key, or keys with a prefix.
 * @returns The number of records deleted.
 * @example
 * ```ts
 * import { clearMemo, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await clearMemo(ws, "measure", { keyPrefix: '["bm25",' }); // 0: nothing recorded
 * ```
 */
export async function clearMemo(
  ws: WorkspaceLike,
  kind: MemoKind,
  f: MemoFilter = {},
): Promise<number> {
  const w = where(kind, f);
  return Number(await ws.exec(`DELETE FROM memo WHERE ${w.sql}`, w.params) ?? 0);
}

/** What the stage runner records for one stage instance (memo kind `stage`). */
export interface StageRunRecord {
  /** Instance id, `stage` or `stage:instance`. */
  id: string;
  /** The recorded fingerprint (prefixed `incomplete:` when items failed). */
  fingerprint: string;
  /** The parameters it ran with (parsed JSON). */
  params: unknown;
  /** Its one-line summary. */
  summary: string;
}

/** The payload of a `stage` record. */
interface StagePayload {
  stage: string;
  params: unknown;
  summary: string;
}

/**
 * Every recorded stage instance (memo kind `stage`), by id.
 *
 * @param ws The workspace.
 * @returns Id -> record.
 * @example
 * ```ts
 * import { openWorkspace, readStageRuns } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * (await readStageRuns(ws)).get("retrieve:bm25")?.fingerprint;
 * ```
 */
export async function readStageRuns(ws: WorkspaceLike): Promise<Map<string, StageRunRecord>> {
  const records = await readMemo<StagePayload>(ws, "stage");
  return new Map(
    [...records.values()].map((r) => [r.key, {
      id: r.key,
      fingerprint: r.fingerprint ?? "",
      params: r.payload?.params,
      summary: r.payload?.summary ?? "",
    }]),
  );
}

/**
 * Records (or replaces) a stage instance's run (memo kind `stage`), finished now.
 *
 * @param ws The workspace.
 * @param r Id, stage kind, fingerprint, parameters as canonical JSON text, summary.
 * @example
 * ```ts
 * import { openWorkspace, recordStageRun } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await recordStageRun(ws, { id: "retrieve:bm25", stage: "retrieve", fingerprint: "ab", params: "{}", summary: "10 rows" });
 * ```
 */
export async function recordStageRun(
  ws: WorkspaceLike,
  r: { id: string; stage: string; fingerprint: string; params: string; summary: string },
): Promise<void> {
  await writeMemo(ws, {
    kind: "stage",
    key: r.id,
    fingerprint: r.fingerprint,
    payload: { stage: r.stage, params: JSON.parse(r.params), summary: r.summary },
  });
}

/**
 * Runs `fn` on the memo of the workspace in `dir` before (or without) a
 * pipeline holding it: the workspace this process has open, else the folder's
 * `workspace.duckdb` opened for the call and closed after (read-only unless
 * `write`). A memo is a shortcut: when the folder has no workspace yet, or it
 * cannot be opened (held by another process, another schema version), or a
 * write is asked of a read-only one, `fn` is not run and the result is undefined.
 *
 * @param dir The workspace folder.
 * @param write Whether `fn` writes.
 * @param fn What to do with the workspace.
 * @returns What `fn` returned, or undefined.
 * @example
 * ```ts
 * import { readMemo, withWorkspaceMemo } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir(); // no workspace yet: undefined
 * await withWorkspaceMemo(dir, false, (ws) => readMemo(ws, "file"));
 * ```
 */
export function withWorkspaceMemo<T>(
  dir: string,
  write: boolean,
  fn: (ws: WorkspaceLike) => Promise<T>,
): Promise<T | undefined> {
  // One at a time: a database file is opened at most once per process.
  const result = memoQueue.then(() => memoAt(dir, write, fn));
  memoQueue = result.then(() => {}, () => {});
  return result;
}

let memoQueue: Promise<void> = Promise.resolve();

async function memoAt<T>(
  dir: string,
  write: boolean,
  fn: (ws: WorkspaceLike) => Promise<T>,
): Promise<T | undefined> {
  const open = Workspace.opened(dir);
  if (open) return open.readOnly && write ? undefined : await fn(open);
  try {
    if (!(await Deno.stat(join(dir, "workspace.duckdb"))).isFile) return undefined;
  } catch {
    return undefined;
  }
  let ws: Workspace;
  try {
    ws = await openWorkspace(dir, { readOnly: !write });
  } catch {
    return undefined;
  }
  try {
    return await fn(ws);
  } finally {
    ws.close();
  }
}
