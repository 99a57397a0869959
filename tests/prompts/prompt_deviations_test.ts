/**
 * `docs/prompt_deviations.md` lists, per built-in prompt, each instruction of
 * the paper's prompt and the terms that show it in the prompt; every term must
 * be in the prompt's messages, and removing one must be caught.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { BUILTIN_PROMPTS, loadTemplate, parseTemplate } from "@lib/llm/mod.ts";
import { checkPrompt, readDeviations } from "./_deviations.ts";

const DOC = fileURLToPath(new URL("../../docs/prompt_deviations.md", import.meta.url));

/** Newest version of each built-in prompt: id -> file name. */
async function builtinFiles(): Promise<Map<string, string>> {
  const newest = new Map<string, { v: number; file: string }>();
  for await (const e of Deno.readDir(BUILTIN_PROMPTS)) {
    const m = /^(.+)\.v(\d+)\.prompt$/.exec(e.name);
    if (!m) continue;
    const v = Number(m[2]);
    if (!(newest.get(m[1])?.v! >= v)) newest.set(m[1], { v, file: e.name });
  }
  return new Map([...newest].map(([id, x]) => [id, x.file]));
}

/** The term as a pattern across line breaks (the prompt's text wraps where it likes). */
const across = (term: string) =>
  new RegExp(
    term.trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"),
    "g",
  );

Deno.test("every built-in prompt has a table, and every table a built-in prompt", async () => {
  const doc = readDeviations(await Deno.readTextFile(DOC));
  const files = await builtinFiles();
  assert.deepEqual([...doc.keys()].sort(), [...files.keys()].sort());
  for (const [id, rows] of doc) assert.ok(rows.length >= 2, `${id}: ${rows.length} row(s)`);
});

Deno.test("every kept, changed and added instruction's terms are in its prompt", async () => {
  const doc = readDeviations(await Deno.readTextFile(DOC));
  const problems: string[] = [];
  let terms = 0;
  for (const [id, rows] of doc) {
    problems.push(...checkPrompt(await loadTemplate(id), rows));
    terms += rows.reduce((n, r) => n + r.terms.length, 0);
  }
  assert.deepEqual(problems, []);
  assert.ok(terms >= 150, `only ${terms} terms checked`);
});

Deno.test("the check fails when a term is removed from a copy of a prompt", async () => {
  const doc = readDeviations(await Deno.readTextFile(DOC));
  const dir = await Deno.makeTempDir();
  try {
    // The rating scale's "accurate" at scale point 5, removed from a copy of the file.
    const file = (await builtinFiles()).get("answerability")!;
    const text = await Deno.readTextFile(join(BUILTIN_PROMPTS, file));
    const cut = "5 = the context is highly relevant, complete and accurate";
    assert.ok(text.includes(cut));
    await Deno.writeTextFile(
      join(dir, file),
      text.replace(cut, "5 = the context is highly relevant and complete"),
    );
    const copy = await loadTemplate("answerability", { dir });
    assert.notEqual(copy.source, (await loadTemplate("answerability")).source);
    const problems = checkPrompt(copy, doc.get("answerability")!);
    assert.equal(problems.length, 1);
    assert.match(
      problems[0],
      /lost its term "5 = the context is highly relevant, complete and accurate"/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("removing any one listed term from its prompt is caught", async () => {
  const doc = readDeviations(await Deno.readTextFile(DOC));
  const files = await builtinFiles();
  let tried = 0;
  for (const [id, rows] of doc) {
    const text = await Deno.readTextFile(join(BUILTIN_PROMPTS, files.get(id)!));
    for (const row of rows) {
      for (const term of row.terms) {
        const pattern = across(term);
        assert.match(text, pattern, `${id}: "${term}" not in the file`);
        const without = text.replace(pattern, " ");
        let problems: string[];
        try {
          problems = checkPrompt(parseTemplate(without, { source: "copy" }), rows);
        } catch (error) {
          // Removing a placeholder term leaves it declared but unused: refused at load.
          assert.ok(
            error instanceof SyntaxError && /never used/.test(error.message),
            String(error),
          );
          tried++;
          continue;
        }
        assert.ok(
          problems.some((p) => p.includes(`"${term}"`)),
          `${id}: removing "${term}" went unnoticed`,
        );
        tried++;
      }
    }
  }
  assert.ok(tried >= 150, `only ${tried} removals tried`);
});

Deno.test("a row without a reason, or a kept row without terms, is a problem", () => {
  const doc = readDeviations([
    "## `echo`",
    "",
    "| Instruction of the paper | Here | How, or why | Terms |",
    "| --- | --- | --- | --- |",
    "| say it | kept | | |",
    "| shout | left out | | |",
    "| whisper | kept | | `softly` |",
  ].join("\n"));
  const t = parseTemplate(
    "---\nid: echo\nversion: 1\nplaceholders: x\noutput: text\n---\n@@ user\nSay {{x}} softly\n",
  );
  assert.deepEqual(checkPrompt(t, doc.get("echo")!), [
    'echo@1 (prompt_deviations.md:5): "say it" is kept but names no term',
    'echo@1 (prompt_deviations.md:6): "shout" is left out without a reason',
  ]);
});
