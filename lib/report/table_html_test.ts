import assert from "node:assert/strict";
import { tableHtml } from "./table_html.ts";
import { SMALL } from "./testdata/small_table.ts";

const L = 'style="text-align:left"';
const R = 'style="text-align:right"';

Deno.test("tableHtml renders groups, marks, escaping, row groups and notes", () => {
  assert.equal(
    tableHtml(SMALL),
    [
      '<table class="crux-table">',
      "<caption>Coverage &amp; cost (top-10)</caption>",
      "<thead>",
      '<tr><th></th><th colspan="2" style="text-align:center">Retrieval</th><th></th><th></th></tr>',
      `<tr><th ${L}>Run</th><th ${R}>Cov@10</th><th ${R}>alpha_nDCG@10</th><th ${R}>Tokens</th><th ${L}>Note</th></tr>`,
      "</thead>",
      "<tbody>",
      `<tr><td ${L}>bm25</td><td ${R}><u>0.500</u></td><td ${R}>0.40</td><td ${R}>1200</td><td ${L}>k1=0.9</td></tr>`,
      `<tr><td ${L}>dense_e5</td><td ${R}><b>0.600</b></td><td ${R}>0.40</td><td ${R}><u>1500</u></td><td ${L}>50% &lt;dup&gt;</td></tr>`,
      `<tr><td ${L}>hybrid</td><td ${R}><b>0.600</b></td><td ${R}>–</td><td ${R}><b>900</b></td><td ${L}>–</td></tr>`,
      "</tbody>",
      '<tbody style="border-top:1px solid currentColor">',
      `<tr><td ${L}>oracle</td><td ${R}>0.900</td><td ${R}>0.90</td><td ${R}>100</td><td ${L}>P*</td></tr>`,
      "</tbody>",
      "<tfoot>",
      '<tr><td colspan="5" style="text-align:left;font-size:smaller">offline backends: lexical judge, extractive generator</td></tr>',
      "</tfoot>",
      "</table>",
      "",
    ].join("\n"),
  );
});

Deno.test("tableHtml escapes quotes and ampersands in labels", () => {
  const html = tableHtml({
    columns: [{ key: "v", label: '"q" & <a>' }],
    rows: [{ label: "<script>", values: { v: 1 } }],
  });
  assert.ok(html.includes("&quot;q&quot; &amp; &lt;a&gt;"));
  assert.ok(html.includes("&lt;script&gt;"));
  assert.ok(!html.includes("<script>"));
});
