/**
 * The repeat rule of the readers, for lists of files in a config: a file listed
 * again is read once; two different files under one name (a qrels file's name
 * is its base name) are an error naming both places.
 *
 * @module
 */
import { resolve } from "node:path";

/**
 * Drops repeated entries of a config's list of files, keeping the first; two
 * different files that `nameOf` gives the same name are refused, naming both
 * positions and both files.
 *
 * @param paths The listed paths (resolved or not; compared resolved).
 * @param field The list's field, e.g. `dataset.qrels`, for the error.
 * @param bad Makes the config's error for a field and a message.
 * @param nameOf The name an entry is stored under (default: its resolved path).
 * @returns The paths, each once, in list order, and how many repeats were dropped.
 * @throws The error of `bad`, for `field[i]` of the later entry.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { basename } from "node:path";
 * import { listedOnce } from "@lib/pipeline/mod.ts";
 * const bad = (field: string, message: string) => new TypeError(`${field}: ${message}`);
 * const name = (p: string) => basename(p, ".txt");
 * assert.deepEqual(listedOnce(["/a/pr.txt", "/b/div.txt", "/a/pr.txt"], "qrels", bad, name), {
 *   paths: ["/a/pr.txt", "/b/div.txt"],
 *   dropped: 1,
 * });
 * assert.throws(() => listedOnce(["/a/pr.txt", "/c/pr.txt"], "qrels", bad, name), /qrels\[1\]/);
 * ```
 */
export function listedOnce(
  paths: readonly string[],
  field: string,
  bad: (field: string, message: string) => Error,
  nameOf: (path: string) => string = (p) => resolve(p),
): { paths: string[]; dropped: number } {
  const seen = new Map<string, { i: number; path: string }>();
  const out: string[] = [];
  let dropped = 0;
  paths.forEach((path, i) => {
    const name = nameOf(path);
    const earlier = seen.get(name);
    if (earlier === undefined) {
      seen.set(name, { i, path });
      out.push(path);
    } else if (resolve(earlier.path) === resolve(path)) dropped++;
    else {
      throw bad(
        `${field}[${i}]`,
        `"${path}" has the name "${name}" of ${field}[${earlier.i}] ("${earlier.path}"), ` +
          "another file; one would replace the other: rename one of them",
      );
    }
  });
  return { paths: out, dropped };
}
