/**
 * Every library file opens with a comment saying what it is for: `//` lines, or a
 * `/** ... *\/` block that belongs to the file (it has `@module`, or a blank line or an
 * import follows it), not the doc comment of the first export.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Whether a source text opens with a file-level comment. */
export function opensWithFileComment(source: string): boolean {
  if (source.startsWith("//")) return true;
  const m = /^\/\*\*[\s\S]*?\*\/\n/.exec(source);
  if (!m) return false;
  const rest = source.slice(m[0].length);
  return m[0].includes("@module") || rest === "" || rest.startsWith("\n") ||
    rest.startsWith("import");
}

async function libraryFiles(dir: string, out: string[] = []): Promise<string[]> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) await libraryFiles(p, out);
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) out.push(p);
  }
  return out;
}

Deno.test("the file-comment rule tells a file's comment from an export's", () => {
  assert.equal(opensWithFileComment("// Fusion of runs.\nexport const x = 1;\n"), true);
  assert.equal(
    opensWithFileComment("/**\n * Runs.\n *\n * @module\n */\nexport const x = 1;\n"),
    true,
  );
  assert.equal(opensWithFileComment("/** Runs. */\n\nexport const x = 1;\n"), true);
  assert.equal(opensWithFileComment("/** Runs. */\nimport { y } from './y.ts';\n"), true);
  assert.equal(opensWithFileComment("/** Options of x. */\nexport interface O {}\n"), false);
  assert.equal(opensWithFileComment("import { y } from './y.ts';\n"), false);
});

Deno.test("every library file opens with a comment saying what it is for", async () => {
  const missing: string[] = [];
  for (const file of await libraryFiles(join(ROOT, "lib"))) {
    if (!opensWithFileComment(await Deno.readTextFile(file))) missing.push(relative(ROOT, file));
  }
  assert.deepEqual(missing.sort(), []);
});
