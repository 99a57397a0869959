/**
 * The pipeline and the command line hold no SQL: every statement on the
 * workspace's tables is a named function of `lib/store`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";

const root = new URL("../../", import.meta.url).pathname;

/** SQL statements, and raw-SQL calls on a workspace (`ws.query(`, `.exec(`, ...). */
const SQL = [
  /\bSELECT\b[\s\S]{0,200}?\bFROM\b/,
  /\bDELETE\s+FROM\b/,
  /\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b/,
  /\bUPDATE\s+\w+\s+SET\b/,
  /\bCREATE\s+(?:TABLE|VIEW|INDEX)\b/,
  /\.(?:query|exec)\s*(?:<[^>]*>)?\s*\(\s*[`"']/,
];

function* sources(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory && e.name !== "testdata") yield* sources(p);
    else if (e.isFile && p.endsWith(".ts") && !p.endsWith("_test.ts")) yield p;
  }
}

/** Lines of library files under `areas` that match a SQL pattern, as `file:line: text`. */
function sqlLines(areas: readonly string[]): string[] {
  const found: string[] = [];
  for (const area of areas) {
    for (const file of sources(join(root, "lib", area))) {
      const text = Deno.readTextFileSync(file);
      for (const re of SQL) {
        const m = re.exec(text);
        if (!m) continue;
        const line = text.slice(0, m.index).split("\n").length;
        found.push(`${relative(root, file)}:${line}: ${m[0].split("\n")[0].trim()}`);
      }
    }
  }
  return found;
}

Deno.test("lib/pipeline and lib/cli hold no SQL (it belongs in lib/store)", () => {
  assert.deepEqual(sqlLines(["pipeline", "cli"]), []);
});

Deno.test("the SQL check finds a statement and a raw query call", () => {
  const hits = (s: string) => SQL.filter((re) => re.test(s)).length;
  assert.equal(hits('await ws.exec("DELETE FROM runs WHERE run = $1", [r]);'), 2);
  assert.equal(hits("ws.query<{ n: number }>(`SELECT count(*) AS n FROM topics`)"), 2);
  assert.equal(hits("UPDATE nuggets SET kept = true"), 1);
  assert.equal(hits("INSERT OR REPLACE INTO meta VALUES ($1, $2)"), 1);
  assert.equal(hits("--rewrite FROM=TO   Rewrite topic ids; select the runs from a file"), 0);
});
