/**
 * One guard for every command that writes files: an output must not be one of
 * its inputs, another output, or the workspace's own files; it must not lie
 * inside an index or another workspace's folder; and an existing file or folder
 * is replaced only when it holds what the command writes (recognised by its
 * content, never by its name). All of it is checked before any work starts.
 *
 * @module
 */
import { basename, dirname, join, resolve, sep } from "node:path";

/** What an existing path holds, as far as the guard needs to know. */
export type Found =
  | { type: "missing" }
  | { type: "folder"; holds: FolderContent; entries: number }
  | { type: "file"; holds: FileContent; size: number; keys?: readonly string[] };

/**
 * Kinds of file content the guard recognises from a file's first bytes: the
 * workbench's own text outputs, and binary formats named in messages.
 */
export type FileContent =
  | "empty"
  | "duckdb"
  | "parquet"
  | "run"
  | "qrels"
  | "jsonl"
  | "json"
  | "csv"
  | "text"
  | "pdf"
  | "png"
  | "zip"
  | "gzip"
  | "sqlite"
  | "binary";

/**
 * Kinds of folder the guard recognises: a workspace (`workspace.duckdb`), an
 * index (`manifest.json` of `crux index`), saved analyses (`analyses.json`), a
 * folder holding only JSONL files, an empty folder, anything else.
 */
export type FolderContent = "workspace" | "index" | "analyses" | "jsonl-files" | "empty" | "folder";

/** What a command writes at an output: a file or a folder of one kind. */
export interface OutputKind {
  /** What the output holds, for messages (e.g. "a TREC run file"). */
  readonly name: string;
  /** A file or a folder. */
  readonly shape: "file" | "folder";
  /**
   * File contents (or folder kinds) this output may replace; a missing path and
   * an empty file always pass, an empty folder passes for a folder output.
   */
  readonly replaces: readonly (FileContent | FolderContent)[];
  /**
   * For JSONL: fields the first record of an existing file must all have, so that
   * one JSONL format is not replaced by another (judgments by key points).
   */
  readonly keys?: readonly string[];
}

/**
 * A JSONL output of one record format, recognised by fields its first record has.
 *
 * @param name What the file holds, for messages (e.g. "answerability judgments (JSONL)").
 * @param keys Fields every record of the format has.
 * @returns The output kind.
 * @example
 * ```ts
 * import { guardOutputs, jsonlOf } from "@lib/formats/mod.ts";
 * const JUDGMENTS = jsonlOf("answerability judgments (JSONL)", ["id", "rating"]);
 * await guardOutputs({ outputs: { "--out": { path: "new-ratings.jsonl", kind: JUDGMENTS } } });
 * ```
 */
export function jsonlOf(name: string, keys: readonly string[]): OutputKind {
  return { name, shape: "file", replaces: ["jsonl"], keys };
}

/** A TREC run file (`crux search`, `crux rerank`, `crux export --format trec`). */
export const RUN_FILE: OutputKind = { name: "a TREC run file", shape: "file", replaces: ["run"] };
/** A TREC qrels file (`crux construct select`). */
export const QRELS_FILE: OutputKind = {
  name: "a TREC qrels file",
  shape: "file",
  replaces: ["qrels"],
};
/** A JSONL file of objects, one a line. */
export const JSONL_FILE: OutputKind = { name: "a JSONL file", shape: "file", replaces: ["jsonl"] };
/** A JSON document (also accepted for a one-line JSONL file). */
export const JSON_FILE: OutputKind = {
  name: "a JSON document",
  shape: "file",
  replaces: ["json", "jsonl"],
};
/** A CSV table with a header line. */
export const CSV_FILE: OutputKind = { name: "a CSV table", shape: "file", replaces: ["csv"] };
/** A Parquet file. */
export const PARQUET_FILE: OutputKind = {
  name: "a Parquet file",
  shape: "file",
  replaces: ["parquet"],
};
/** A BM25 index folder made by `crux index`. */
export const INDEX_FOLDER: OutputKind = {
  name: "an index folder",
  shape: "folder",
  replaces: ["index"],
};
/**
 * A folder of saved analyses (`crux compare --out`): one with `analyses.json`,
 * or the command's own workspace folder. Which of its files may be replaced is
 * `guardAnalysisOutputs`' check.
 */
export const ANALYSIS_FOLDER: OutputKind = {
  name: "a folder of saved analyses (with analyses.json)",
  shape: "folder",
  replaces: ["analyses", "workspace"],
};
/** A folder of JSONL files, one per annotator (`crux annotate export --out`). */
export const JSONL_FOLDER: OutputKind = {
  name: "a folder of JSONL files",
  shape: "folder",
  replaces: ["jsonl-files"],
};

/** An output path, with the kind of file or folder written there. */
export interface OutputTarget {
  /** The path; undefined when the option was not given. */
  path: string | undefined;
  /** What the command writes there. */
  kind: OutputKind;
}

/** What {@linkcode guardOutputs} compares. Keys name the option (`--out`), values the paths. */
export interface OutputPaths {
  /** Files the command reads, by option name. Undefined entries are skipped. */
  inputs?: Readonly<Record<string, string | undefined>>;
  /**
   * Files the command writes, by option name, with their kind. A bare path is a
   * file of no known kind: it may only be new or empty. Undefined entries are skipped.
   */
  outputs: Readonly<Record<string, string | OutputTarget | undefined>>;
  /** A workspace folder the command opens: its database and journal files are protected. */
  workspace?: string;
  /**
   * Folders the command reads as a whole (an index), by option name: no output may
   * lie inside one. Undefined entries are skipped.
   */
  inputDirs?: Readonly<Record<string, string | undefined>>;
}

/** An output path that would overwrite an input, another output, a workspace file or data of another kind. */
export class OutputConflictError extends Error {
  override name = "OutputConflictError";
}

/** Files of a workspace folder that no output may replace. */
export const WORKSPACE_FILES: readonly string[] = [
  "workspace.duckdb",
  "workspace.duckdb.wal",
  "llm_journal.jsonl",
];

/** The file whose presence makes a folder a workspace. */
const WORKSPACE_DB = "workspace.duckdb";
/** The `format` field of an index folder's `manifest.json`. */
const INDEX_FORMAT = "crux-bm25";
/** Bytes read to recognise a file's content. */
const HEAD = 64 * 1024;

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
 * Recognises a file's content from its first bytes: a DuckDB database, Parquet,
 * a TREC run or qrels file, JSONL, JSON, CSV, other text or binary data.
 *
 * @param bytes The file's first bytes (up to 64 KiB is enough).
 * @param whole True when `bytes` is the whole file (its last line is complete).
 * @returns The content kind.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sniffContent } from "@lib/formats/mod.ts";
 * const bytes = new TextEncoder().encode("q1 Q0 d1 1 2.5 bm25\n");
 * assert.equal(sniffContent(bytes, true), "run");
 * ```
 */
export function sniffContent(bytes: Uint8Array, whole: boolean): FileContent {
  if (bytes.length === 0) return "empty";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(8, 12) === "DUCK") return "duckdb";
  const magic = ascii(0, 16);
  if (magic.startsWith("PAR1")) return "parquet";
  if (magic.startsWith("%PDF")) return "pdf";
  if (magic.startsWith("\x89PNG")) return "png";
  if (magic.startsWith("PK\x03\x04")) return "zip";
  if (magic.startsWith("\x1f\x8b")) return "gzip";
  if (magic.startsWith("SQLite format 3")) return "sqlite";
  let end = bytes.length;
  if (!whole) {
    end = bytes.lastIndexOf(0x0a) + 1;
    if (end === 0) end = bytes.length; // one long line: judge what there is
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end));
  } catch {
    return "binary";
  }
  if (text.includes("\0")) return "binary";
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split("\n").map((l) => l.replace(/\r$/, "")).filter((l) => l.trim() !== "");
  if (lines.length === 0) return "text";
  if (lines.every(isJsonObject)) return "jsonl";
  const t = text.trimStart();
  if (t.startsWith("{") || t.startsWith("[")) {
    if (!whole) return "json";
    try {
      JSON.parse(text);
      return "json";
    } catch {
      return "text";
    }
  }
  const fields = lines.map((l) => l.trim().split(/\s+/));
  const int = (s: string) => /^-?\d+$/.test(s);
  const num = (s: string) => Number.isFinite(Number(s)) || /^-?(inf|nan)$/i.test(s);
  if (fields.every((f) => f.length === 6 && int(f[3]) && num(f[4]))) return "run";
  if (fields.every((f) => f.length === 4 && int(f[3]))) return "qrels";
  // A header of column names, e.g. `topic_id,request`.
  if (/^("?[\p{L}_][\p{L}\p{N}_.@ -]*"?)(,"?[\p{L}_][\p{L}\p{N}_.@ -]*"?)+$/u.test(lines[0])) {
    return "csv";
  }
  return "text";
}

/** The fields of the first record of a JSONL head. */
function firstKeys(head: Uint8Array): string[] {
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, "");
  const line = text.split("\n").find((l) => l.trim() !== "");
  try {
    return Object.keys(JSON.parse(line ?? "{}"));
  } catch {
    return [];
  }
}

function isJsonObject(line: string): boolean {
  const t = line.trim();
  if (!t.startsWith("{") || !t.endsWith("}")) return false;
  try {
    const v = JSON.parse(t);
    return v !== null && typeof v === "object" && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * What a path holds: missing, a folder (a workspace, an index, empty, other)
 * or a file with its recognised content.
 *
 * @param path Any path.
 * @returns What is there.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inspectPath } from "@lib/formats/mod.ts";
 * const dir = await Deno.makeTempDir();
 * assert.deepEqual(await inspectPath(dir), { type: "folder", holds: "empty", entries: 0 });
 * assert.deepEqual(await inspectPath(`${dir}/new.run`), { type: "missing" });
 * ```
 */
export async function inspectPath(path: string): Promise<Found> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return { type: "missing" };
    }
    throw error;
  }
  if (info.isDirectory) {
    const names: Deno.DirEntry[] = [];
    for await (const e of Deno.readDir(path)) names.push(e);
    const holds: FolderContent = await isWorkspaceFolder(path)
      ? "workspace"
      : await isIndexFolder(path)
      ? "index"
      : names.length === 0
      ? "empty"
      : names.some((e) => e.name === "analyses.json" && e.isFile)
      ? "analyses"
      : await onlyJsonl(path, names)
      ? "jsonl-files"
      : "folder";
    return { type: "folder", holds, entries: names.length };
  }
  if (info.size === 0) return { type: "file", holds: "empty", size: 0 };
  const file = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(Math.min(HEAD, info.size));
    let n = 0;
    while (n < buf.length) {
      const got = await file.read(buf.subarray(n));
      if (got === null) break;
      n += got;
    }
    const head = buf.subarray(0, n);
    const holds = sniffContent(head, n >= info.size);
    return holds === "jsonl"
      ? { type: "file", holds, size: info.size, keys: firstKeys(head) }
      : { type: "file", holds, size: info.size };
  } finally {
    file.close();
  }
}

/** True when every entry is a file holding JSONL (checked for up to 200 entries). */
async function onlyJsonl(dir: string, entries: Deno.DirEntry[]): Promise<boolean> {
  if (entries.length > 200) return false;
  for (const e of entries) {
    if (!e.isFile) return false;
    const found = await inspectPath(join(dir, e.name));
    if (found.type !== "file" || !["jsonl", "json", "empty"].includes(found.holds)) return false;
  }
  return true;
}

async function isWorkspaceFolder(dir: string): Promise<boolean> {
  try {
    return (await Deno.stat(join(dir, WORKSPACE_DB))).isFile;
  } catch {
    return false;
  }
}

async function isIndexFolder(dir: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
    return manifest?.format === INDEX_FORMAT;
  } catch {
    return false;
  }
}

/**
 * Describes what was found at a path, for messages: "a DuckDB database (8.9 MB)".
 *
 * @param found What {@linkcode inspectPath} returned.
 * @returns A short phrase with an article.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeFound } from "@lib/formats/mod.ts";
 * assert.equal(describeFound({ type: "file", holds: "duckdb", size: 3 * 1024 * 1024 }), "a DuckDB database (3.0 MB)");
 * ```
 */
export function describeFound(found: Found): string {
  if (found.type === "missing") return "nothing";
  if (found.type === "folder") {
    switch (found.holds) {
      case "workspace":
        return "a workspace folder";
      case "index":
        return "an index folder";
      case "empty":
        return "an empty folder";
      case "analyses":
        return "a folder of saved analyses";
      case "jsonl-files":
        return `a folder of ${found.entries} JSONL file${found.entries === 1 ? "" : "s"}`;
      default:
        return `a folder with ${found.entries} entr${found.entries === 1 ? "y" : "ies"}`;
    }
  }
  const what: Record<FileContent, string> = {
    empty: "an empty file",
    duckdb: "a DuckDB database",
    parquet: "a Parquet file",
    run: "a TREC run file",
    qrels: "a TREC qrels file",
    jsonl: "a JSONL file",
    json: "a JSON document",
    csv: "a CSV table",
    text: "a text file",
    pdf: "a PDF document",
    png: "a PNG image",
    zip: "a ZIP archive",
    gzip: "a gzip archive",
    sqlite: "an SQLite database",
    binary: "binary data",
  };
  return `${what[found.holds]} (${formatSize(found.size)})`;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/**
 * The nearest existing folder above `path` (canonical) that is a workspace or an
 * index folder, if any.
 */
async function enclosingStore(
  canonical: string,
): Promise<{ dir: string; holds: "workspace" | "index" } | undefined> {
  let dir = dirname(canonical);
  for (;;) {
    if (await isWorkspaceFolder(dir)) return { dir, holds: "workspace" };
    if (await isIndexFolder(dir)) return { dir, holds: "index" };
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Refuses, before any work, outputs that would overwrite an input, another
 * output or a workspace's database (`workspace.duckdb`, its WAL, the answer
 * journal); outputs inside an input folder (an index the command reads), inside
 * any index folder, or inside the folder of a workspace the command does not
 * open; and outputs whose existing target holds something else than the command
 * writes there (a DuckDB database, a folder where a file goes, a file of another
 * kind), with or without any force flag. Paths are compared after resolving
 * symlinks and `..`, so `a/../x.run` and a link to `x.run` are both `x.run`.
 *
 * @param paths Inputs, outputs (with their kinds) and the workspace, keyed by option name.
 * @throws {OutputConflictError} Naming the option, the path and what it holds.
 * @example
 * ```ts
 * import { guardOutputs, RUN_FILE } from "@lib/formats/mod.ts";
 * await guardOutputs({
 *   inputs: { "--topics": "topics.jsonl" },
 *   outputs: { "--out": { path: "bm25.run", kind: RUN_FILE } },
 * });
 * ```
 */
export async function guardOutputs(paths: OutputPaths): Promise<void> {
  const taken = new Map<string, string>();
  for (const [name, p] of Object.entries(paths.inputs ?? {})) {
    if (p !== undefined) taken.set(await canonicalPath(p), `input ${name} "${p}"`);
  }
  const ownWorkspace = paths.workspace === undefined
    ? undefined
    : await canonicalPath(paths.workspace);
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
  for (const [name, target] of Object.entries(paths.outputs)) {
    const p = typeof target === "string" ? target : target?.path;
    if (p === undefined) continue;
    const kind = typeof target === "string" || target === undefined ? NEW_FILE : target.kind;
    const refuse = (why: string) =>
      new OutputConflictError(
        `Refusing to write ${name} "${p}": ${why}. Nothing was changed; choose another output path`,
      );
    const c = await canonicalPath(p);
    const other = taken.get(c) ??
      dirs.find(([d]) => c === d || c.startsWith(d.endsWith(sep) ? d : d + sep))?.[1];
    if (other) throw refuse(`it is ${other}; writing would destroy it`);
    const store = await enclosingStore(c);
    const found = await inspectPath(c);
    // What is there comes first in the message; then where it lies.
    if (!replaceable(found, kind, c === ownWorkspace)) {
      const shape = found.type === "folder" && kind.shape === "file"
        ? "a folder, not a file: "
        : found.type === "file" && kind.shape === "folder"
        ? "a file, not a folder: "
        : "";
      const fields = found.type === "file" && found.keys && kind.keys
        ? ` with fields ${found.keys.join(", ") || "(none)"}`
        : "";
      const within = store ? ` in the ${store.holds} folder "${store.dir}"` : "";
      throw refuse(
        `it is ${shape}${describeFound(found)}${fields}${within}; ${name} writes ${kind.name}, ` +
          `and replaces only ${kind.name} written before`,
      );
    }
    if (store?.holds === "index") {
      throw refuse(
        `it is inside the index folder "${store.dir}", which only \`crux index\` writes`,
      );
    }
    if (store?.holds === "workspace" && store.dir !== ownWorkspace) {
      throw refuse(
        `it is inside the workspace folder "${store.dir}"` +
          (ownWorkspace === undefined ? "" : `, not the workspace this command opens`) +
          "; a workspace's folder holds only what its own commands write",
      );
    }
    taken.set(c, `output ${name} "${p}"`);
  }
}

/** A file of no declared kind: only a new path or an empty file. */
const NEW_FILE: OutputKind = { name: "a new file", shape: "file", replaces: [] };

function replaceable(found: Found, kind: OutputKind, ownWorkspace: boolean): boolean {
  if (found.type === "missing") return true;
  if (found.type === "folder") {
    if (kind.shape !== "folder") return false;
    if (found.holds === "workspace") return ownWorkspace && kind.replaces.includes("workspace");
    return found.holds === "empty" || kind.replaces.includes(found.holds);
  }
  if (kind.shape !== "file") return false;
  if (found.holds === "empty") return true;
  if (!kind.replaces.includes(found.holds)) return false;
  return !kind.keys || found.holds !== "jsonl" || kind.keys.every((k) => found.keys?.includes(k));
}
