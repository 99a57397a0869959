// Loads prompt templates by name from the built-in folder or a folder of the user's own.

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseTemplate, type PromptTemplate } from "./parse_template.ts";
import { promptSetOf } from "./prompt_files.ts";

/** Folder of the built-in templates. */
export const BUILTIN_PROMPTS: string = fileURLToPath(new URL("../prompts/", import.meta.url));

async function versionsIn(dir: string, id: string): Promise<number[]> {
  const found: number[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const m = /^(.+)\.v(\d+)\.prompt$/.exec(entry.name);
      if (entry.isFile && m && m[1] === id) found.push(Number(m[2]));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found.sort((a, b) => b - a);
}

/**
 * Loads a prompt template `<id>.v<N>.prompt` (plain text, so formatters leave it alone), from the user's folder first and the
 * built-in folder (`lib/prompts/`) otherwise; the highest version wins unless one
 * is asked for. The file is checked as it loads (see {@link parseTemplate}).
 * `dir` may also name a prompt source of user files (`promptSet`): a step with
 * a file of its own gets that file's template (whatever `version`), the others
 * load from the source's folder or the built-ins.
 *
 * @param id Template id, e.g. `answerability`.
 * @param opts `dir`: folder of replacement templates or a prompt source (default none);
 *   `version`: exact version.
 * @returns The template.
 * @throws {Deno.errors.NotFound} When no file matches.
 * @throws {SyntaxError} When the file is malformed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const tpl = await loadTemplate("answerability");
 * assert.deepEqual(tpl.placeholders, ["question", "context"]);
 * ```
 */
export async function loadTemplate(
  id: string,
  opts: { dir?: string; version?: number } = {},
): Promise<PromptTemplate> {
  const set = promptSetOf(opts.dir);
  if (set) {
    return set.templates.get(id) ?? await loadTemplate(id, { dir: set.dir, version: opts.version });
  }
  const dirs = opts.dir ? [opts.dir, BUILTIN_PROMPTS] : [BUILTIN_PROMPTS];
  for (const dir of dirs) {
    const versions = await versionsIn(dir, id);
    const version = opts.version ?? versions[0];
    if (version === undefined || !versions.includes(version)) continue;
    const path = join(dir, `${id}.v${version}.prompt`);
    const template = parseTemplate(await Deno.readTextFile(path), { source: path });
    if (template.id !== id || template.version !== version) {
      throw new SyntaxError(
        `Cannot read prompt template ${path}:1: header says ${template.ref}, file name says ${id}@${version}; make them agree`,
      );
    }
    return template;
  }
  const where = opts.dir ? `${opts.dir} or the built-in prompts` : "the built-in prompts";
  const v = opts.version ? ` version ${opts.version}` : "";
  throw new Deno.errors.NotFound(`No prompt template "${id}"${v} in ${where}; add ${id}.v1.prompt`);
}
