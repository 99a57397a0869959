/**
 * One guard for every command that writes files: an output must not be one of
 * its inputs, another output, or the workspace's own files.
 *
 * @module
 */
import { basename, dirname, join, resolve, sep } from "node:path";

/** What {@linkcode guardOutputs} compares. Keys name the option (`--out`), values the paths. */
export interface OutputPaths {
  /** Files the command reads, by option name. Undefined entries are skipped. */
  inputs?: Readonly<Record<string, string | undefined>>;
  /** Files the command writes, by option name. Undefined entries are skipped. */
  outputs: Readonly<Record<string, string | undefined>>;
  /** A workspace folder the command opens: its database and journal files are protected. */
  workspace?: string;
  /**
   * Folders the command reads as a whole (an index), by option name: no output may
   * lie inside one. Undefined entries are skipped.
   */
  inputDirs?: Readonly<Record<string, string | undefined>>;
}

/** An output path that would overwrite an input, another output or a workspace file. */
export class OutputConflictError extends Error {
  override name = "OutputConflictError";
}

/** Files of a workspace folder that no output may replace. */
export const WORKSPACE_FILES: readonly string[] = [
  "workspace.duckdb",
  "workspace.duckdb.wal",
  "llm_journal.jsonl",
];

/**
 * The canonical form of a path: symlinks and `..` resolved. For a path that does
 * not exist yet, the deepest existing ancestor is resolved and the rest appended.
 *
 * @param path Any path.
 * @returns The absolute canonical path.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalPath } from "@lib/formats/mod.ts";
 * assert.equal(await canonicalPath("outputs/../outputs/new.run"), `${await Deno.realPath(".")}/outputs/new.run`);
 * ```
 */
export async function canonicalPath(path: string): Promise<string> {
  const abs = resolve(path);
  const rest: string[] = [];
  let head = abs;
  for (;;) {
    try {
      return join(await Deno.realPath(head), ...rest);
    } catch (error) {
      if (
        !(error instanceof Deno.errors.NotFound) && !(error instanceof Deno.errors.NotADirectory)
      ) {
        throw error;
      }
      const parent = dirname(head);
      if (parent === head) return abs;
      rest.unshift(basename(head));
      head = parent;
    }
  }
}

/**
 * Refuses outputs that would overwrite an input, another output, a workspace's
 * database (`workspace.duckdb`, its WAL, the answer journal) or any file inside
 * an input folder (an index the command reads). Paths are compared
 * after resolving symlinks and `..`, so `a/../x.run` and a link to `x.run` are
 * both `x.run`.
 *
 * @param paths Inputs, outputs and the workspace, keyed by option name.
 * @throws {OutputConflictError} Naming both options and the shared file.
 * @example
 * ```ts
 * import { guardOutputs } from "@lib/formats/mod.ts";
 * await guardOutputs({ inputs: { "--topics": "topics.jsonl" }, outputs: { "--out": "bm25.run" } });
 * ```
 */
export async function guardOutputs(paths: OutputPaths): Promise<void> {
  const taken = new Map<string, string>();
  for (const [name, p] of Object.entries(paths.inputs ?? {})) {
    if (p !== undefined) taken.set(await canonicalPath(p), `input ${name} "${p}"`);
  }
  if (paths.workspace !== undefined) {
    for (const f of WORKSPACE_FILES) {
      const p = join(paths.workspace, f);
      taken.set(await canonicalPath(p), `the workspace file "${p}"`);
    }
  }
  const dirs: [string, string][] = [];
  for (const [name, p] of Object.entries(paths.inputDirs ?? {})) {
    if (p !== undefined) dirs.push([await canonicalPath(p), `inside input folder ${name} "${p}"`]);
  }
  for (const [name, p] of Object.entries(paths.outputs)) {
    if (p === undefined) continue;
    const c = await canonicalPath(p);
    const other = taken.get(c) ??
      dirs.find(([d]) => c === d || c.startsWith(d.endsWith(sep) ? d : d + sep))?.[1];
    if (other) {
      throw new OutputConflictError(
        `Refusing to write ${name} "${p}": it is ${other}; writing would destroy it. ` +
          "Choose another output path",
      );
    }
    taken.set(c, `output ${name} "${p}"`);
  }
}
