import assert from "node:assert/strict";
import { displayTable } from "./display_table.ts";
import { tableHtml } from "./table_html.ts";
import { tableMarkdown } from "./table_markdown.ts";
import { tableText } from "./table_text.ts";
import { SMALL } from "./testdata/small_table.ts";

Deno.test("displayTable returns an HTML, Markdown and plain-text bundle", () => {
  const shown = displayTable(SMALL);
  const bundle = shown[Symbol.for("Jupyter.display")]();
  assert.deepEqual(bundle, {
    "text/html": tableHtml(SMALL, { sortable: true }),
    "text/markdown": tableMarkdown(SMALL),
    "text/plain": tableText(SMALL),
  });
  assert.equal(String(shown), tableText(SMALL));
  const html = bundle["text/html"] as string;
  assert.match(html, /^<table class="crux-table crux-sortable" id="crux-table-[0-9a-f]{8}">/);
  assert.ok(html.includes('<td style="text-align:right" data-value="0.5"><u>0.500</u></td>'));
  assert.match(html, /<script>\(function\(\)\{var t=document.getElementById\("crux-table-/);
});

Deno.test("displayTable fails at once on an invalid table", () => {
  assert.throws(() => displayTable({ columns: [{ key: "", label: "x" }], rows: [] }), TypeError);
});
