import assert from "node:assert/strict";
import { join } from "node:path";
import { saveTable } from "./save_table.ts";
import { tableCsv } from "./table_csv.ts";
import { tableLatex } from "./table_latex.ts";
import { tableHtml } from "./table_html.ts";
import { tableMarkdown } from "./table_markdown.ts";
import { SMALL } from "./testdata/small_table.ts";

Deno.test("saveTable writes .csv, .md, .tex and .html into a new folder and leaves no temp files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const base = join(dir, "tables", "small");
    const paths = await saveTable(SMALL, base);
    assert.deepEqual(paths, {
      csv: `${base}.csv`,
      md: `${base}.md`,
      tex: `${base}.tex`,
      html: `${base}.html`,
    });
    assert.equal(await Deno.readTextFile(paths.html), tableHtml(SMALL, { sortable: true }));
    assert.equal(await Deno.readTextFile(paths.csv), tableCsv(SMALL));
    assert.equal(await Deno.readTextFile(paths.md), tableMarkdown(SMALL));
    assert.equal(await Deno.readTextFile(paths.tex), tableLatex(SMALL, { siunitx: true }));
    const names = [...Deno.readDirSync(join(dir, "tables"))].map((e) => e.name).sort();
    assert.deepEqual(names, ["small.csv", "small.html", "small.md", "small.tex"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("saveTable writes nothing for an invalid table", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      saveTable(
        { columns: [{ key: "a", label: "A" }, { key: "a", label: "B" }], rows: [] },
        join(dir, "t"),
      ),
      TypeError,
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
