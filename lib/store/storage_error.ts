/**
 * Plain explanations of what the database engine says when a workspace file is
 * locked, damaged or cannot be written.
 *
 * @module
 */

/** What went wrong with a workspace's database file. */
export type StorageFault = "locked" | "damaged" | "disk-full" | "aborted" | "invalidated";

/** A workspace that could not be opened, read or written, explained. */
export class WorkspaceStorageError extends Error {
  override name = "WorkspaceStorageError";
  /** The kind of fault. */
  readonly fault: StorageFault;
  /** What the database engine said, unchanged. */
  readonly engineMessage: string;

  /**
   * @param message The explanation shown to the user.
   * @param fault The kind of fault.
   * @param engineMessage What the database engine said.
   */
  constructor(message: string, fault: StorageFault, engineMessage: string) {
    super(message);
    this.fault = fault;
    this.engineMessage = engineMessage;
  }
}

const DAMAGED = [
  /Could not read enough bytes/i,
  /not a valid DuckDB database file/i,
  /checksum/i,
  /Corrupt/i,
  /INTERNAL Error: .*(block|header)/i,
];
const FULL = [/No space left on device/i, /disk is full/i, /Disk quota exceeded/i];

/** The engine's own advice that names options of another program, cut from messages. */
function withoutEngineHints(message: string): string {
  return message
    .replace(
      /\s*However, you would be able to open this database in read-only mode.*?\bCLI\./is,
      "",
    )
    .replace(/\s*See also https?:\/\/\S+/gi, "")
    .trim();
}

/**
 * Explains a database error about a workspace file, or returns undefined when
 * the error is of another kind (a bad query, a constraint). The explanation says
 * what happened and what to do, in the workbench's own commands; the engine's
 * hints about options of its own command-line shell are left out.
 *
 * @param error Whatever was thrown.
 * @param dir The workspace folder, named in the explanation (when known).
 * @returns The explained error, or undefined.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainStorageError } from "@lib/store/mod.ts";
 * const e = explainStorageError(
 *   new Error('IO Error: Could not write file "w.duckdb": No space left on device'),
 *   "outputs/exp",
 * );
 * assert.equal(e?.fault, "disk-full");
 * ```
 */
export function explainStorageError(
  error: unknown,
  dir?: string,
): WorkspaceStorageError | undefined {
  if (error instanceof WorkspaceStorageError) return error;
  const raw = error instanceof Error ? error.message : String(error);
  const said = withoutEngineHints(raw);
  const check = `\`crux workspace check --workspace ${dir ?? "DIR"}\``;
  const ws = dir === undefined ? "the workspace" : `workspace "${dir}"`;
  const Ws = dir === undefined ? "The workspace" : `Workspace "${dir}"`;
  if (/Could not set lock|Conflicting lock/i.test(raw)) {
    const pid = /PID (\d+)/.exec(raw)?.[1];
    return new WorkspaceStorageError(
      `${Ws} is in use by another process${pid ? ` (PID ${pid})` : ""}: ` +
        "only one process may write to a workspace at a time. Wait for it to finish or stop " +
        "it, then run the command again. (Database: " + said + ")",
      "locked",
      raw,
    );
  }
  if (/database has been invalidated/i.test(raw)) {
    const full = FULL.some((r) => r.test(raw));
    return new WorkspaceStorageError(
      `${Ws} stopped accepting writes after an earlier failure` +
        (full ? " (the disk is full)" : "") + ". What was committed before it is kept; " +
        (full ? "free disk space, then " : "") + `run the command again, and ${check} ` +
        "to verify the file. (Database: " + said + ")",
      "invalidated",
      raw,
    );
  }
  if (FULL.some((r) => r.test(raw))) {
    return new WorkspaceStorageError(
      `Cannot write to ${ws}: the disk is full. The write was rolled back and ` +
        "what was committed before it is kept. Free disk space, then run the command again " +
        `(work already done is reused), and ${check} to verify the file. (Database: ${said})`,
      "disk-full",
      raw,
    );
  }
  if (/Current transaction is aborted/i.test(raw)) {
    return new WorkspaceStorageError(
      `A write to ${ws} failed earlier in the same transaction (often a full ` +
        "disk), so the transaction was abandoned; what was committed before it is kept. Check " +
        `the free disk space, run the command again, and ${check} to verify the file. ` +
        `(Database: ${said})`,
      "aborted",
      raw,
    );
  }
  if (DAMAGED.some((r) => r.test(raw))) {
    return new WorkspaceStorageError(
      `${Ws} is damaged: its file workspace.duckdb is truncated or is not a ` +
        `database (a copy cut short, or a disk fault). Run ${check} to see what can still be ` +
        "read; then restore the folder from a backup, or move it aside and rebuild it with the " +
        "commands that made it (`crux run --config ...` or `crux import ...`), exporting " +
        "readable tables first with `crux export`. (Database: " + said + ")",
      "damaged",
      raw,
    );
  }
  return undefined;
}
