/**
 * Values computed from an input file's bytes (its SHA-256, the runs an answer
 * file holds), remembered in the workspace's memo (kind `file`) by the file's
 * identity, so that declaring the stages of an unchanged experiment does not
 * read its big input files again.
 *
 * @module
 */
import { resolve } from "node:path";
import { type MemoRecord, readMemo, withWorkspaceMemo, writeMemo } from "@lib/store/mod.ts";

/**
 * The `file` records of each workspace folder, read once per process (a record
 * is checked against the file's identity, so one read earlier is never wrong).
 */
const loaded = new Map<string, Map<string, MemoRecord>>();

async function records(dir: string): Promise<Map<string, MemoRecord> | undefined> {
  const known = loaded.get(resolve(dir));
  if (known) return known;
  const read = await withWorkspaceMemo(dir, false, (ws) => readMemo(ws, "file"));
  if (read) loaded.set(resolve(dir), read);
  return read;
}

/** Size, modification and status-change times, inode and device: changes whenever the file is written. */
async function identity(path: string): Promise<string> {
  const s = await Deno.stat(path);
  return [s.size, s.mtime?.getTime(), s.ctime?.getTime(), s.ino, s.dev].join(":");
}

/**
 * Returns `compute(path)`, or the value remembered for `kind` and `path` when
 * the file's identity (size, modification and status-change times, inode,
 * device) is the one it was computed under. The memo is the workspace's (kind
 * `file`, key `["<kind>","<absolute path>"]`); without `dir`, or when `dir` holds
 * no workspace yet or it cannot be opened, it always computes. Values must be JSON.
 *
 * @param path The input file.
 * @param kind What is computed (`sha256`, `answer-runs`), part of the key.
 * @param compute Reads the file and computes the value.
 * @param dir The workspace folder.
 * @returns The value.
 * @throws When the file cannot be read (as `compute` or `Deno.stat` would).
 */
export async function rememberByFile<T>(
  path: string,
  kind: string,
  compute: (path: string) => Promise<T>,
  dir?: string,
): Promise<T> {
  if (dir === undefined) return await compute(path);
  const key = JSON.stringify([kind, resolve(path)]);
  const id = await identity(path);
  const known = (await records(dir))?.get(key);
  if (known && known.fingerprint === id && known.payload !== undefined) return known.payload as T;
  const value = await compute(path);
  // The identity is read again after computing: a file written meanwhile is not remembered.
  if ((await identity(path)) !== id) return value;
  const written = await withWorkspaceMemo(
    dir,
    true,
    async (
      ws,
    ) => (await writeMemo(ws, { kind: "file", key, fingerprint: id, payload: value }), true),
  );
  if (written) {
    loaded.get(resolve(dir))?.set(key, {
      kind: "file",
      key,
      fingerprint: id,
      payload: value,
      recordedAt: new Date(),
    });
  }
  return value;
}

/** SHA-256 of a file's bytes, in hex. */
async function sha256OfFile(path: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The SHA-256 of an input file's bytes, for a stage's parameters (an edited file
 * re-runs the stage), remembered in workspace `dir` by the file's identity so an
 * unchanged file is not read again.
 *
 * @param path The file.
 * @param dir The workspace folder (none: not remembered).
 * @returns The digest in hex.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileSha256 } from "@lib/pipeline/mod.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.txt`, "abc");
 * assert.equal(
 *   await fileSha256(`${dir}/a.txt`),
 *   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * );
 * ```
 */
export function fileSha256(path: string, dir?: string): Promise<string> {
  return rememberByFile(path, "sha256", sha256OfFile, dir);
}
