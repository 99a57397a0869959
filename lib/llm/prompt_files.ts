/**
 * A user's own prompt for a step, one file away: `--prompt NAME=FILE` or the
 * config's `prompts` section name a file per template id, checked as it is
 * read (its placeholders must be exactly the built-in prompt's), and the set of
 * them becomes a prompt source that {@link loadTemplate} reads before the
 * templates folder and the built-in prompts.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseTemplate, type PromptTemplate } from "./parse_template.ts";

const BUILTIN_PROMPTS = fileURLToPath(new URL("../prompts/", import.meta.url));

/** Prefix of a prompt source made of user files (stands where a templates folder would). */
export const PROMPT_SET_PREFIX = "prompt-set:";

/** The user templates of one prompt source, and the folder behind them. */
interface PromptSet {
  dir?: string;
  templates: Map<string, PromptTemplate>;
}

const sets = new Map<string, PromptSet>();
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/** Newest version of a template in a folder, read synchronously (undefined when none). */
function newestIn(dir: string, id: string): PromptTemplate | undefined {
  let best: { v: number; name: string } | undefined;
  try {
    for (const e of Deno.readDirSync(dir)) {
      const m = /^(.+)\.v(\d+)\.prompt$/.exec(e.name);
      if (e.isFile && m && m[1] === id && !(best && best.v >= Number(m[2]))) {
        best = { v: Number(m[2]), name: e.name };
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (!best) return undefined;
  const path = join(dir, best.name);
  return parseTemplate(Deno.readTextFileSync(path), { source: path });
}

/** Ids of the built-in prompts, sorted. */
function builtinIds(): string[] {
  const ids = new Set<string>();
  for (const e of Deno.readDirSync(BUILTIN_PROMPTS)) {
    const m = /^(.+)\.v\d+\.prompt$/.exec(e.name);
    if (m) ids.add(m[1]);
  }
  return [...ids].sort();
}

const list = (names: readonly string[]) => names.map((n) => `{{${n}}}`).join(", ");

/**
 * Reads a user's prompt file for the step `id`. The file is either a template
 * (header between `---` lines, as in `lib/prompts/`) or plain text: one user
 * message, or messages introduced by `@@ system` / `@@ user` / `@@ assistant`
 * lines. Its placeholders must be exactly those of the step's prompt (the
 * templates folder's, else the built-in one); sampling parameters and output
 * format come from that prompt unless the file's header sets them. The
 * template's reference is `<id>@<version>+file:<first 12 hex digits of the
 * SHA-256 of the file's text>`, recorded with every call.
 *
 * @param id The step's template id, e.g. `answerability`.
 * @param path The file.
 * @param opts `dir`: folder of replacement templates (default none).
 * @returns The template.
 * @throws {TypeError} When the file cannot be read, `id` names no prompt, or a
 *   placeholder is unknown or missing (each named).
 * @throws {SyntaxError} When the file's header or messages are malformed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const file = await Deno.makeTempFile({ suffix: ".txt" });
 * await Deno.writeTextFile(file, "Can {{context}} answer {{question}}? Rate it 0-5.");
 * const t = readPromptFile("answerability", file);
 * assert.match(t.ref, /^answerability@\d+\+file:[0-9a-f]{12}$/);
 * assert.deepEqual(t.placeholders, ["context", "question"]);
 * await Deno.remove(file);
 * ```
 */
export function readPromptFile(
  id: string,
  path: string,
  opts: { dir?: string } = {},
): PromptTemplate {
  const base = (opts.dir ? newestIn(opts.dir, id) : undefined) ?? newestIn(BUILTIN_PROMPTS, id);
  if (!base) {
    throw new TypeError(
      `Cannot use prompt file "${path}" for "${id}": there is no prompt "${id}"; ` +
        `name one of ${builtinIds().join(", ")}`,
    );
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(path).replace(/\r\n/g, "\n");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new TypeError(`Cannot read prompt file "${path}" for "${id}": ${why}`);
  }
  const used = [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
  const unknown = used.filter((p) => !base.placeholders.includes(p));
  const missing = base.placeholders.filter((p) => !used.includes(p));
  if (unknown.length || missing.length) {
    const parts = [
      unknown.length ? `unknown placeholder(s) ${list(unknown)}` : "",
      missing.length ? `missing placeholder(s) ${list(missing)}` : "",
    ].filter(Boolean);
    throw new TypeError(
      `Cannot use prompt file "${path}" for "${id}": ${parts.join("; ")}; ` +
        `"${id}" fills exactly ${list(base.placeholders)}`,
    );
  }
  let own: PromptTemplate;
  if (text.trimStart().startsWith("---")) {
    own = parseTemplate(text, { source: path });
    if (own.id !== id) {
      throw new TypeError(
        `Cannot use prompt file "${path}" for "${id}": its header says id "${own.id}"; ` +
          `make them agree`,
      );
    }
    own = { ...own, params: { ...base.params, ...own.params } };
  } else {
    const body = /^@@\s*(system|user|assistant)\s*$/m.test(text.split("\n")[0] ?? "")
      ? text
      : `@@ user\n${text}`;
    const header = [
      "---",
      `id: ${id}`,
      `version: ${base.version}`,
      `description: ${base.description}`,
      `placeholders: ${used.join(", ")}`,
      `output: ${base.output}`,
      "---",
    ].join("\n");
    own = { ...parseTemplate(`${header}\n${body}`, { source: path }), params: { ...base.params } };
  }
  const ref = `${id}@${own.version}+file:${digest(text).slice(0, 12)}`;
  return { ...own, ref, source: path };
}

/**
 * A prompt source made of user files, one per template id, over a templates
 * folder (or the built-in prompts): every file is read and checked now (see
 * {@link readPromptFile}), before any call. Pass the returned name wherever a
 * templates folder goes (`templatesDir`); {@link loadTemplate} then takes a
 * step's prompt from its file, and the others from `dir` or the built-ins.
 * The same files and folder give the same name.
 *
 * @param files Template id -> file.
 * @param opts `dir`: folder of replacement templates (default none).
 * @returns The source's name, `prompt-set:<hex>`.
 * @throws {TypeError} As {@link readPromptFile}.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadTemplate } from "@lib/llm/mod.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "Rate 0-5: can {{context}} answer {{question}}?");
 * const source = promptSet({ answerability: file });
 * const t = await loadTemplate("answerability", { dir: source });
 * assert.equal(t.messages[0].content, "Rate 0-5: can {{context}} answer {{question}}?");
 * assert.equal((await loadTemplate("relevance", { dir: source })).ref, "relevance@1");
 * await Deno.remove(file);
 * ```
 */
export function promptSet(
  files: Readonly<Record<string, string>>,
  opts: { dir?: string } = {},
): string {
  const templates = new Map<string, PromptTemplate>();
  for (const [id, path] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    templates.set(id, readPromptFile(id, path, opts));
  }
  const key = digest(
    JSON.stringify([opts.dir ?? null, [...templates].map(([id, t]) => [id, t.ref])]),
  );
  const name = `${PROMPT_SET_PREFIX}${key.slice(0, 16)}`;
  sets.set(name, { dir: opts.dir, templates });
  return name;
}

/**
 * The prompt source named by `dir` when it is one made by {@link promptSet}.
 *
 * @throws {TypeError} When `dir` looks like a prompt source this process never made.
 */
export function promptSetOf(dir: string | undefined): PromptSet | undefined {
  if (!dir?.startsWith(PROMPT_SET_PREFIX)) return undefined;
  const set = sets.get(dir);
  if (!set) {
    throw new TypeError(`Unknown prompt source "${dir}": make it with promptSet() in this process`);
  }
  return set;
}

/**
 * Reads `--prompt` values: `NAME=FILE`, or a bare `FILE` named by its header's
 * `id:` or its file name (`answerability.txt`, `answerability.v1.prompt`).
 *
 * @param values The flag's values.
 * @returns Template id -> file.
 * @throws {TypeError} When a name or a bare file names no prompt, or one step is given twice.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parsePromptFlags(["relevance=my/umbrela.txt"]), { relevance: "my/umbrela.txt" });
 * assert.throws(() => parsePromptFlags(["relevanse=my/umbrela.txt"]), /no prompt "relevanse"/);
 * ```
 */
export function parsePromptFlags(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const ids = builtinIds();
  for (const v of values) {
    const named = /^([a-z_][a-z0-9_]*)=(.+)$/.exec(v);
    let id: string | undefined;
    let file = v;
    if (named && ids.includes(named[1])) [id, file] = [named[1], named[2]];
    else if (named) {
      let exists = false;
      try {
        exists = Deno.statSync(v).isFile;
      } catch { /* not a file: a step name that is unknown */ }
      if (!exists) {
        throw new TypeError(
          `--prompt ${v}: there is no prompt "${named[1]}"; steps: ${ids.join(", ")}`,
        );
      }
    }
    if (!id) {
      let header: string | undefined;
      try {
        const text = Deno.readTextFileSync(v);
        header = /^---\n(?:.*\n)*?id:\s*(\S+)/.exec(text.replace(/\r\n/g, "\n"))?.[1];
      } catch { /* named below, or refused when read */ }
      const stem = (v.split(/[\\/]/).at(-1) ?? "").split(".")[0];
      id = header ?? (ids.includes(stem) ? stem : undefined);
    }
    if (!id) {
      throw new TypeError(
        `--prompt ${v}: name the step it replaces, as --prompt NAME=FILE (steps: ${
          ids.join(", ")
        })`,
      );
    }
    if (out[id] !== undefined) throw new TypeError(`--prompt names "${id}" twice`);
    out[id] = file;
  }
  return out;
}
