// The answer journal of a call cache: one JSON line per answered call, appended the
// moment the answer arrives, so a killed process loses only the calls on the wire.
import type { StoredCall } from "./call_cache.ts";

const enc = new TextEncoder();

/** Appends one call as a JSON line (one write; the file is opened and closed per call). */
export function appendJournal(path: string, call: StoredCall): void {
  Deno.writeFileSync(path, enc.encode(JSON.stringify(call) + "\n"), { append: true });
}

/** Empties the journal (its calls are committed). */
export function clearJournal(path: string): void {
  try {
    Deno.truncateSync(path, 0);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Reads the calls of a journal left by a killed process. A torn last line (the
 * process died mid-write) is skipped and counted; so is any other line that is
 * not a call.
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
