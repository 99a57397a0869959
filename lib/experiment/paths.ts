/**
 * Where the repository, the bundled datasets and experiment outputs are.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository root (the folder holding `deno.json`), resolved from this module's location.
 *
 * @returns An absolute path without a trailing separator.
 * @example
 * ```ts
 * const root = repoRoot(); // e.g. ".../crux-workbench"
 * ```
 */
export function repoRoot(): string {
  return fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]$/, "");
}

/**
 * The folder of an experiment workspace: `outputs/<name>` under the root.
 *
 * @param name Experiment name (letters, digits, `-`, `_`, `.`).
 * @param opts `root` overrides the repository root (default {@linkcode repoRoot}).
 * @returns The folder path.
 * @throws {RangeError} When the name is empty or contains a path separator.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(experimentDir("demo"), `${repoRoot()}/outputs/demo`);
 * ```
 */
export function experimentDir(name: string, opts: { root?: string } = {}): string {
  if (!/^[\w.-]+$/.test(name) || name === "." || name === "..") {
    throw new RangeError(
      `Invalid experiment name "${name}": use letters, digits, "-", "_" or "."`,
    );
  }
  return join(opts.root ?? repoRoot(), "outputs", name);
}

/**
 * The bundled sample dataset folder (`datasets/sample`).
 *
 * @returns The folder path.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(sampleDir(), `${repoRoot()}/datasets/sample`);
 * ```
 */
export function sampleDir(): string {
  return join(repoRoot(), "datasets", "sample");
}
