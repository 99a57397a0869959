/**
 * Atomic file writing: readers never see a half-written file.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** Content accepted by {@linkcode writeAtomic}: one string or a stream of chunks. */
export type Content = string | Iterable<string> | AsyncIterable<string>;

/**
 * Writes `content` to `path` atomically: the text goes to a temporary file in the
 * same folder, which is then renamed over `path`. On failure the temporary file is
 * removed and `path` is left as it was. The folder must exist.
 *
 * @param path File to write.
 * @param content The text, or chunks of it written in order (for large outputs).
 * @returns Resolves when the file is in place.
 * @throws {Deno.errors.NotFound} When the folder does not exist.
 * @example
 * ```ts
 * import { formatRun, writeAtomic } from "@lib/formats/mod.ts";
 * const rows = [{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }];
 * const dir = await Deno.makeTempDir();
 * await writeAtomic(`${dir}/run.txt`, formatRun(rows));
 * ```
 */
export async function writeAtomic(path: string, content: Content): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const encoder = new TextEncoder();
  try {
    const file = await Deno.open(temp, { write: true, createNew: true });
    try {
      if (typeof content === "string") {
        await writeAll(file, encoder.encode(content));
      } else {
        let pending: string[] = [];
        let size = 0;
        for await (const chunk of content) {
          pending.push(chunk);
          size += chunk.length;
          if (size >= 1 << 20) {
            await writeAll(file, encoder.encode(pending.join("")));
            pending = [];
            size = 0;
          }
        }
        await writeAll(file, encoder.encode(pending.join("")));
      }
    } finally {
      file.close();
    }
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(
        `Cannot write "${path}": folder "${dir}" does not exist; create it first`,
      );
    }
    throw error;
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
}
