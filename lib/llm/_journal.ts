// The answer journal of a call cache: one JSON line per answered call, appended the
// moment the answer arrives, so a killed process loses only the calls on the wire.
// The active file is `<path>`; when its calls are committed to the database in a
// group, it is first renamed to a numbered segment `<path>.<n>`, which is deleted
// once the commit succeeds. Opening a cache folds in the segments and the active
// file a killed process left.
import { basename, dirname, join } from "node:path";
import type { StoredCall } from "./call_cache.ts";

const enc = new TextEncoder();

/** An append handle on the active journal file, opened on first use and closed by `close`. */
export class JournalWriter {
  #file?: Deno.FsFile;
  #segment = 0;
  constructor(readonly path: string, firstSegment = 0) {
    this.#segment = firstSegment;
  }

  /** Appends one call as a JSON line; on disk (in the OS) when this returns. */
  append(call: StoredCall): void {
    this.#file ??= Deno.openSync(this.path, { append: true, create: true });
    const bytes = enc.encode(JSON.stringify(call) + "\n");
    let written = 0;
    while (written < bytes.length) written += this.#file.writeSync(bytes.subarray(written));
  }

  /**
   * Closes the active file and renames it to the next segment.
   *
   * @returns The segment's path, or undefined when nothing was journaled.
   */
  rotate(): string | undefined {
    this.close();
    const segment = `${this.path}.${++this.#segment}`;
    try {
      Deno.renameSync(this.path, segment);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
    return segment;
  }

  /** Closes the handle (the next append reopens it). */
  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }
}

/** Deletes journal files whose calls are committed; a missing file is fine. */
export function removeJournalFiles(paths: readonly string[]): void {
  for (const p of paths) {
    try {
      Deno.removeSync(p);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/**
 * The segments of a journal (`<path>.<n>`, oldest first) and the active file,
 * as they exist on disk, with the highest segment number.
 */
export function journalFiles(path: string): { files: string[]; lastSegment: number } {
  const name = basename(path);
  const segments: [number, string][] = [];
  try {
    for (const entry of Deno.readDirSync(dirname(path))) {
      const m = entry.isFile && entry.name.startsWith(name + ".")
        ? /^(\d+)$/.exec(entry.name.slice(name.length + 1))
        : null;
      if (m) segments.push([Number(m[1]), join(dirname(path), entry.name)]);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  segments.sort((a, b) => a[0] - b[0]);
  return {
    files: [...segments.map(([, p]) => p), path],
    lastSegment: segments.at(-1)?.[0] ?? 0,
  };
}

/**
 * Reads the calls of a journal file left by a killed process. A torn last line
 * (the process died mid-write) is skipped and counted; so is any other line that
 * is not a call.
 */
export async function readJournal(path: string): Promise<{ calls: StoredCall[]; torn: number }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { calls: [], torn: 0 };
    throw error;
  }
  const calls: StoredCall[] = [];
  let torn = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const c = JSON.parse(line) as StoredCall;
      if (typeof c?.key === "string" && typeof c.status === "string") calls.push(c);
      else torn++;
    } catch {
      torn++;
    }
  }
  return { calls, torn };
}
