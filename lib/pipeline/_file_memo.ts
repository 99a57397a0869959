/**
 * Values computed from an input file's bytes (its SHA-256, the runs an answer
 * file holds), remembered in the workspace folder by the file's identity, so
 * that declaring the stages of an unchanged experiment does not read its big
 * input files again.
 *
 * @module
 */
import { join, resolve } from "node:path";

/** Name of the memo file in the workspace folder. */
export const FILE_MEMO = "file_memo.json";

/** One remembered value and the identity of the file it was computed from. */
interface MemoEntry {
  identity: string;
  value: unknown;
}

const memos = new Map<string, Promise<Record<string, MemoEntry>>>();
let writing: Promise<void> = Promise.resolve();

/** Size, modification and status-change times, inode and device: changes whenever the file is written. */
async function identity(path: string): Promise<string> {
  const s = await Deno.stat(path);
  return [s.size, s.mtime?.getTime(), s.ctime?.getTime(), s.ino, s.dev].join(":");
}

async function load(file: string): Promise<Record<string, MemoEntry>> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(file));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {}; // absent or unreadable: nothing remembered, every value is computed
  }
}

/**
 * Returns `compute(path)`, or the value remembered for `kind` and `path` when
 * the file's identity (size, modification and status-change times, inode,
 * device) is the one it was computed under. Without `dir`, or when `dir` does
 * not exist, it always computes. The memo is a cache: a missing or unreadable
 * memo file only costs a recomputation; values must be JSON.
 *
 * @param path The input file.
 * @param kind What is computed (`sha256`, `answer-runs`), part of the key.
 * @param compute Reads the file and computes the value.
 * @param dir Folder of the memo file (the workspace folder).
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
  try {
    if (!(await Deno.stat(dir)).isDirectory) return await compute(path);
  } catch {
    return await compute(path);
  }
  const file = join(resolve(dir), FILE_MEMO);
  const key = `${kind}\u0000${resolve(path)}`;
  let memo = memos.get(file);
  if (!memo) memos.set(file, memo = load(file));
  const id = await identity(path);
  const known = (await memo)[key];
  if (known && known.identity === id) return known.value as T;
  const value = await compute(path);
  // The identity is read again after computing: a file written meanwhile is not remembered.
  if ((await identity(path)) !== id) return value;
  const entries = await memo;
  entries[key] = { identity: id, value };
  writing = writing.then(async () => {
    const tmp = `${file}.${Deno.pid}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(entries));
    await Deno.rename(tmp, file);
  }).catch(() => {}); // a memo that cannot be written is only a lost shortcut
  await writing;
  return value;
}
