/**
 * Where an experiment's files live, from a notebook or the command line.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** Folders of one experiment. */
export interface ExperimentPaths {
  /** Repository root. */
  root: string;
  /** `outputs/<experiment>`: the workspace folder and output root. */
  outDir: string;
  tables: string;
  figures: string;
}

/**
 * Resolves the repository root from the current directory (a notebook runs in
 * `notebooks/`, the command line in the root) and the experiment's folders
 * under `outputs/<experiment>`.
 *
 * @param experiment Experiment name, e.g. `Deno.env.get("CRUX_EXPERIMENT") ?? "sample"`.
 * @param opts `cwd` (default `Deno.cwd()`).
 * @returns Root, output folder, tables and figures folders (absolute when `cwd` is).
 * @throws {RangeError} When the name is not folder-safe (letters, digits, `.`, `_`, `-`).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(experimentPaths("sample", { cwd: "/repo/notebooks" }).figures, "/repo/outputs/sample/figures");
 * ```
 */
export function experimentPaths(experiment: string, opts: { cwd?: string } = {}): ExperimentPaths {
  if (!/^[\w.-]+$/.test(experiment) || experiment === "." || experiment === "..") {
    throw new RangeError(
      `Cannot use experiment name "${experiment}": use letters, digits, ".", "_" or "-" (it names a folder under outputs/)`,
    );
  }
  const cwd = opts.cwd ?? Deno.cwd();
  const root = basename(cwd) === "notebooks" ? dirname(cwd) : cwd;
  const outDir = join(root, "outputs", experiment);
  return { root, outDir, tables: join(outDir, "tables"), figures: join(outDir, "figures") };
}
