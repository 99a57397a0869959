/**
 * Atomic file writing: readers never see a half-written file.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { describeFound, inspectPath } from "./guard_outputs.ts";

/**
 * Content accepted by {@linkcode writeAtomic}: one string, bytes (e.g. a PNG) or a
 * stream of text chunks.
 */
export type Content = string | Uint8Array | Iterable<string> | AsyncIterable<string>;

/**
 * Writes `content` to `path` atomically: the text goes to a temporary file in the
 * same folder, which is then renamed over `path`. On failure the temporary file is
 * removed and `path` is left as it was. The folder must exist. As a last line of
 * defence behind the commands' output guard, a folder, a DuckDB database or a
 * Parquet file at `path` is never replaced.
 *
 * @param path File to write.
 * @param content The text, bytes, or text chunks written in order (for large outputs).
 * @returns Resolves when the file is in place.
 * @throws {Deno.errors.NotFound} When the folder does not exist.
 * @throws {Deno.errors.AlreadyExists} When `path` is a folder or a database.
 * @throws {Error} Naming `path` when the file cannot be written (e.g. permissions);
 *   an error thrown by a content stream is passed on unchanged.
 * @example
 * ```ts
 * import { formatRun, writeAtomic } from "@lib/formats/mod.ts";
 * const rows = [{ run: "bm25", topicId: "q1", docId: "d1", rank: 1, score: 2.5 }];
 * const dir = await Deno.makeTempDir();
 * await writeAtomic(`${dir}/run.txt`, formatRun(rows));
 * ```
 */
export async function writeAtomic(path: string, content: Content): Promise<void> {
  const found = await inspectPath(path);
  if (
    found.type === "folder" ||
    (found.type === "file" && (found.holds === "duckdb" || found.holds === "parquet"))
  ) {
    throw new Deno.errors.AlreadyExists(
      `Refusing to write "${path}": it is ${
        describeFound(found)
      }, not a file this command writes. ` +
        "Nothing was changed; choose another output path",
    );
  }
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const encoder = new TextEncoder();
  let file: Deno.FsFile;
  try {
    file = await Deno.open(temp, { write: true, createNew: true });
  } catch (error) {
    throw cannotWrite(path, error);
  }
  const write = async (bytes: Uint8Array) => {
    try {
      await writeAll(file, bytes);
    } catch (error) {
      throw cannotWrite(path, error);
    }
  };
  try {
    try {
      if (typeof content === "string") {
        await write(encoder.encode(content));
      } else if (content instanceof Uint8Array) {
        await write(content);
      } else {
        let pending: string[] = [];
        let size = 0;
        for await (const chunk of content) {
          pending.push(chunk);
          size += chunk.length;
          if (size >= 1 << 20) {
            await write(encoder.encode(pending.join("")));
            pending = [];
            size = 0;
          }
        }
        await write(encoder.encode(pending.join("")));
      }
    } finally {
      file.close();
    }
    try {
      await Deno.rename(temp, path);
    } catch (error) {
      throw cannotWrite(path, error);
    }
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** Wraps a file-system error with the path and what to check. */
function cannotWrite(path: string, error: unknown): Error {
  if (error instanceof Deno.errors.NotFound) {
    return new Deno.errors.NotFound(
      `Cannot write "${path}": folder "${dirname(path)}" does not exist; create it first`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new Error(
    `Cannot write "${path}": ${message}; check the folder is writable and "${path}" is not a folder`,
    { cause: error },
  );
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
}
