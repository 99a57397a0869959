// The answer journal of a call cache: one JSON line per answered call, appended the
// moment the answer arrives, so a killed process loses only the calls on the wire.
// Each open cache writes its own file `<path>.<tag>` (several caches of one process
// may share a workspace); when its calls are committed to the database in a group,
// the file is first renamed to a numbered segment `<path>.<tag>.<n>`, deleted once
// the commit succeeds. Opening a cache folds in every journal file that no open
// cache of this process owns (what a killed process left).
import { basename, dirname, join } from "node:path";
import type { StoredCall } from "./call_cache.ts";

const enc = new TextEncoder();

/** Tags of the journal writers open in this process. */
const live = new Set<string>();
let tags = 0;

/** An append handle on a cache's own journal file, opened on first use and closed by `close`. */
export class JournalWriter {
  #file?: Deno.FsFile;
  #segment = 0;
  readonly tag = `${Date.now().toString(36)}-${Deno.pid}-${++tags}`;
  /** The file this writer appends to. */
  readonly path: string;
  constructor(journal: string) {
    this.path = `${journal}.${this.tag}`;
    live.add(this.tag);
  }

  /**
   * Appends one call as a JSON line. The lines of the answers handled in one turn
   * of the event loop are written together, in one write, before the next I/O
   * (a microtask); the promise resolves when the line is on disk (in the OS).
   */
  append(call: StoredCall): Promise<void> {
    this.#lines.push(JSON.stringify(call));
    if (!this.#queued) {
      this.#queued = true;
      queueMicrotask(() => this.#write());
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  #lines: string[] = [];
  #waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  #queued = false;

  /** Writes the gathered lines now and settles their promises. */
  writeNow(): void {
    this.#write();
  }

  #write(): void {
    this.#queued = false;
    const waiters = this.#waiters.splice(0);
    if (this.#lines.length === 0) return;
    const text = this.#lines.join("\n") + "\n";
    this.#lines = [];
    try {
      this.#file ??= Deno.openSync(this.path, { append: true, create: true });
      const bytes = enc.encode(text);
      let written = 0;
      while (written < bytes.length) written += this.#file.writeSync(bytes.subarray(written));
    } catch (error) {
      for (const w of waiters) w.reject(error);
      return;
    }
    for (const w of waiters) w.resolve();
  }

  /**
   * Closes the active file and renames it to the next segment.
   *
   * @returns The segment's path, or undefined when nothing was journaled.
   */
  rotate(): string | undefined {
    this.writeNow();
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

  /** Closes the handle (the next append reopens it); gathered lines are written first. */
  close(): void {
    this.writeNow();
    this.#file?.close();
    this.#file = undefined;
  }

  /** Ends the writer: its files are left to the next open (when uncommitted) and not skipped. */
  release(): void {
    this.close();
    live.delete(this.tag);
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
 * The journal files no open writer of this process owns (`<path>`, `<path>.<tag>`,
 * `<path>.<tag>.<n>`), each writer's segments in order before its open file.
 */
export function journalFiles(path: string): string[] {
  const name = basename(path);
  const found: { tag: string; seq: number; file: string }[] = [];
  try {
    for (const entry of Deno.readDirSync(dirname(path))) {
      if (!entry.isFile) continue;
      if (entry.name !== name && !entry.name.startsWith(name + ".")) continue;
      const [tag = "", seq] = entry.name.slice(name.length + 1).split(".");
      if (live.has(tag)) continue;
      const n = seq === undefined ? Infinity : Number(seq);
      found.push({
        tag,
        seq: Number.isFinite(n) ? n : Infinity,
        file: join(dirname(path), entry.name),
      });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  found.sort((a, b) => a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : a.seq - b.seq);
  return found.map((f) => f.file);
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
