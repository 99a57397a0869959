/**
 * Each exported name has one meaning across `lib`: no two library files
 * declare an export of the same name (a re-export of the same symbol, as the
 * `mod.ts` files do, is not a second meaning).
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";

const root = new URL("../../", import.meta.url).pathname;

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|enum|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm;

/**
 * Names declared as exports by more than one file, with the files.
 *
 * @param sources Repository-relative path and content of each library file.
 */
export function repeatedExports(
  sources: Iterable<readonly [string, string]>,
): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const [path, text] of sources) {
    for (const m of text.matchAll(DECLARATION)) {
      byName.set(m[1], [...(byName.get(m[1]) ?? []), path]);
    }
  }
  return new Map([...byName].filter(([, files]) => files.length > 1));
}

function* files(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* files(p);
    else if (p.endsWith(".ts")) yield p;
  }
}

Deno.test("the repeated-export finder names both files and ignores re-exports", () => {
  const found = repeatedExports([
    ["lib/a/x.ts", "export function mean(xs: number[]) {}\nexport type Row = {};"],
    ["lib/b/y.ts", "export async function mean() {}\nexport interface Other {}"],
    ["lib/a/mod.ts", 'export { mean } from "./x.ts";\nexport type { Row } from "./x.ts";'],
  ]);
  assert.deepEqual([...found], [["mean", ["lib/a/x.ts", "lib/b/y.ts"]]]);
});

Deno.test("each exported name is declared by one library file", () => {
  const sources = [...files(join(root, "lib"))]
    .map((f) => relative(root, f))
    .filter((f) => !f.endsWith("_test.ts") && !f.includes("/testdata/"))
    .map((f) => [f, Deno.readTextFileSync(join(root, f))] as const);
  const repeated = [...repeatedExports(sources)].map(([n, fs]) => `${n}: ${fs.join(", ")}`);
  assert.deepEqual(repeated, [], `names exported with two meanings:\n${repeated.join("\n")}`);
});
