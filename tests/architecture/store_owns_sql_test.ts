/**
 * The store owns the schema: no library file outside `lib/store` holds SQL,
 * apart from the notebook query helper (`lib/report/query_table.ts`), whose
 * purpose is to run a researcher's own query; and no library file outside
 * `lib/store` writes a store table (a workspace's `insert`, `upsert` or
 * `upsertStream` naming a table, or the store's bulk writers): each table's
 * writes are functions of its module in `lib/store`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { TABLES } from "@lib/store/schema.ts";

const root = new URL("../../", import.meta.url).pathname;

/** Files allowed to hold SQL outside `lib/store`. */
const ALLOWED = new Set(["lib/report/query_table.ts"]);

/** SQL statements as they are written in this code base (keywords upper case). */
const SQL =
  /\b(SELECT\s+(?:DISTINCT\s+)?[\w*"(]|INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM|UPDATE\s+"?\w+"?\s+SET|CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP\w*\s+)?(?:TABLE|VIEW|INDEX|SEQUENCE)|DROP\s+(?:TABLE|VIEW)|ALTER\s+TABLE|COPY\s*\(|ATTACH\s+['"$]|PRAGMA\s+\w)/;

/** Code without its comments (strings are kept: that is where SQL lives). */
function withoutComments(text: string): string {
  let out = "";
  let i = 0;
  let quote: string | null = null;
  while (i < text.length) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === "\\") {
        out += text[i + 1] ?? "";
        i += 2;
        continue;
      }
      if (c === quote) quote = null;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      // Keep the comment's line breaks, so that line numbers stay right.
      out += text.slice(i, stop).replace(/[^\n]/g, "");
      i = stop;
    } else {
      if (c === '"' || c === "'" || c === "`") quote = c;
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * Lines of `text` (a library file at `path`) that hold SQL, as `path:line: text`.
 *
 * @param path Repository-relative path, for the message.
 * @param text The file's content.
 */
export function sqlLines(path: string, text: string): string[] {
  return withoutComments(text).split("\n").flatMap((line, i) =>
    SQL.test(line) ? [`${path}:${i + 1}: ${line.trim().slice(0, 100)}`] : []
  );
}

/** A workspace write naming its table: `ws.upsert("measures", rows)`, over several lines too. */
const WRITE_CALL = /\.\s*(insert|upsert|upsertStream)\s*\(\s*["'`](\w+)["'`]/g;

/** A workspace's write whose table is not a literal: `ws.upsert(table, rows)`. */
const WORKSPACE_WRITE = /\b(?:ws|workspace)\s*\.\s*(insert|upsert|upsertStream)\s*\((?!\s*["'`])/g;

/** The store's bulk writers, which take a table and write it. */
const BULK_WRITER = /\b(insertRecords|upsertRecords|upsertBatches)\s*\(/g;

/**
 * Writes to store tables in `text` (a library file at `path`), as
 * `path:line: call table`: a workspace `insert`/`upsert`/`upsertStream` whose
 * first argument names a table of the schema, a workspace's (`ws`,
 * `workspace`) such call whose table is not a literal, and any call of the
 * store's bulk writers. Comments are skipped (documentation examples are prose here).
 *
 * @param path Repository-relative path, for the message.
 * @param text The file's content.
 */
export function storeWrites(path: string, text: string): string[] {
  const code = withoutComments(text);
  const lineOf = (index: number) => code.slice(0, index).split("\n").length;
  const found: { line: number; what: string }[] = [];
  for (const m of code.matchAll(WRITE_CALL)) {
    if (Object.hasOwn(TABLES, m[2])) found.push({ line: lineOf(m.index), what: `${m[1]} ${m[2]}` });
  }
  for (const m of code.matchAll(WORKSPACE_WRITE)) {
    found.push({ line: lineOf(m.index), what: `${m[1]} (table not named)` });
  }
  for (const m of code.matchAll(BULK_WRITER)) found.push({ line: lineOf(m.index), what: m[1] });
  return found.sort((a, b) => a.line - b.line).map((f) => `${path}:${f.line}: ${f.what}`);
}

function* files(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* files(p);
    else if (p.endsWith(".ts")) yield p;
  }
}

Deno.test("the SQL finder sees statements in strings and ignores comments and prose", () => {
  const code = [
    "/** Reads rows; SELECT in a comment is prose. */",
    'const a = await ws.query("SELECT topic_id FROM topics");',
    "// DELETE FROM measures is only a comment here",
    "await ws.exec(`DELETE FROM measures WHERE run = $1`, [run]);",
    'const note = "select the runs you want"; // lower case prose',
    "const sql = `INSERT INTO runs BY NAME SELECT * FROM t`;",
    "await ws.exec(`UPDATE ratings SET rating = 5`);",
    "const url = 'http://example.org/SELECT'; const b = 1;",
  ].join("\n");
  assert.deepEqual(sqlLines("x.ts", code).map((l) => l.split(":")[1]), ["2", "4", "6", "7"]);
  // Line numbers stay right after a multi-line comment.
  assert.deepEqual(
    sqlLines("y.ts", "/*\n a\n b\n*/\nconst q = `\n  SELECT 1`;").map((l) => l.split(":")[1]),
    ["6"],
  );
});

Deno.test("no SQL outside lib/store, apart from the notebook query helper", () => {
  const found: string[] = [];
  for (const file of files(join(root, "lib"))) {
    const rel = relative(root, file);
    if (rel.startsWith("lib/store/") || rel.endsWith("_test.ts") || rel.includes("/testdata/")) {
      continue;
    }
    if (ALLOWED.has(rel)) continue;
    found.push(...sqlLines(rel, Deno.readTextFileSync(file)));
  }
  assert.deepEqual(found, [], `SQL outside lib/store:\n${found.join("\n")}`);
});

Deno.test("the write finder sees table writes over several lines and ignores comments and other calls", () => {
  const code = [
    '/** Example: `await ws.upsert("measures", rows)` in a comment is prose. */',
    'await ws.upsert("measures", rows);',
    '// ws.insert("runs", rows) is only a comment',
    "await this.ws.upsert(",
    '  "keypoint_labels",',
    "  labels,",
    ");",
    'set.insert("not_a_table", 1); cache.upsert("key", 2);',
    "await ws.upsertStream(`passages`, stream());",
    "await insertRecords(connection, info, rows);",
    'await ws.insert("runs", rows);',
    "await s.ws.upsert(table, rows);",
  ].join("\n");
  assert.deepEqual(storeWrites("x.ts", code), [
    "x.ts:2: upsert measures",
    "x.ts:4: upsert keypoint_labels",
    "x.ts:9: upsertStream passages",
    "x.ts:10: insertRecords",
    "x.ts:11: insert runs",
    "x.ts:12: upsert (table not named)",
  ]);
});

Deno.test("no writes to store tables outside lib/store", () => {
  const found: string[] = [];
  for (const file of files(join(root, "lib"))) {
    const rel = relative(root, file);
    if (rel.startsWith("lib/store/") || rel.endsWith("_test.ts") || rel.includes("/testdata/")) {
      continue;
    }
    found.push(...storeWrites(rel, Deno.readTextFileSync(file)));
  }
  assert.deepEqual(found, [], `Store tables written outside lib/store:\n${found.join("\n")}`);
});
