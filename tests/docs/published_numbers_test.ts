/**
 * The published CRUX-DUC numbers of docs/reproduce_crux_duc.md: the page's table equals
 * docs/crux_duc_published.json, every number names a known source, and a number that is
 * not given says why instead of showing a value.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface PublishedRow {
  table: string;
  run: string;
  measure: string;
  value: number | null;
  source: string | null;
  missing?: string;
}

interface Published {
  sources: Record<string, string>;
  rows: PublishedRow[];
}

const HEADER = ["table", "run", "measure", "published", "source", "note"];

/** The rows of the page's Markdown table whose header is {@linkcode HEADER}, cells trimmed. */
function publishedTable(markdown: string): string[][] {
  const lines = markdown.split("\n");
  const cells = (l: string) => l.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  const start = lines.findIndex((l) => l.startsWith("|") && cells(l).join() === HEADER.join());
  if (start < 0) throw new Error(`no table with the columns ${HEADER.join(", ")}`);
  const rows: string[][] = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith("|"); i++) {
    rows.push(cells(lines[i]));
  }
  return rows;
}

const load = async () => ({
  json: JSON.parse(
    await Deno.readTextFile(join(ROOT, "docs", "crux_duc_published.json")),
  ) as Published,
  page: await Deno.readTextFile(join(ROOT, "docs", "reproduce_crux_duc.md")),
});

Deno.test("the page's table of published numbers equals docs/crux_duc_published.json", async () => {
  const { json, page } = await load();
  const table = publishedTable(page);
  assert.equal(table.length, json.rows.length, "one table row per published number");
  json.rows.forEach((r, i) => {
    const [t, run, measure, published, source, note] = table[i];
    const at = `row ${i + 1} (${r.run} ${r.measure})`;
    assert.deepEqual([t, run, measure], [r.table, r.run, r.measure], at);
    if (r.value === null) {
      assert.equal(published, "-", at);
      assert.equal(note, r.missing, at);
    } else {
      // Written with four decimals on the page; the same number.
      assert.match(published, /^\d\.\d{4}$/, at);
      assert.equal(Number(published), r.value, at);
      assert.equal(note, "", at);
    }
    assert.equal(source, r.source ?? "none", at);
  });
});

Deno.test("every published number has a source, and every number not given says why", async () => {
  const { json, page } = await load();
  assert.ok(json.rows.some((r) => r.value !== null));
  for (const r of json.rows) {
    const at = `${r.table} ${r.run} ${r.measure}`;
    if (r.value !== null) {
      assert.ok(Number.isFinite(r.value) && r.value >= 0 && r.value <= 1, at);
      assert.ok(r.source && json.sources[r.source], `${at}: its source is named in "sources"`);
    } else {
      assert.ok(r.missing && r.missing.length > 10, `${at}: says why it is not given`);
      assert.ok(r.source === null || json.sources[r.source], at);
    }
  }
  // Every source is used and described on the page.
  for (const key of Object.keys(json.sources)) {
    assert.ok(json.rows.some((r) => r.source === key), `source ${key} is used`);
    assert.ok(page.includes(`- \`${key}\`:`), `source ${key} is described on the page`);
  }
});

Deno.test("the published table's parser finds the rows and fails without the table", () => {
  const md = [
    "text",
    "| table | run | measure | published | source | note |",
    "| --- | --- | --- | --- | --- | --- |",
    "| context evaluation | bm25 | P@10 | 0.5140 | s |  |",
    "| main table | bm25 | Cov | - | none | why |",
    "",
    "| other | table |",
  ].join("\n");
  assert.deepEqual(publishedTable(md), [
    ["context evaluation", "bm25", "P@10", "0.5140", "s", ""],
    ["main table", "bm25", "Cov", "-", "none", "why"],
  ]);
  assert.throws(() => publishedTable("| a | b |\n| - | - |\n"), /no table with the columns/);
});
