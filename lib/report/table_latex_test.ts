import assert from "node:assert/strict";
import { tableLatex } from "./table_latex.ts";
import { SMALL } from "./testdata/small_table.ts";

Deno.test("tableLatex renders booktabs with multicolumn groups, marks, escaping and notes", () => {
  assert.equal(
    tableLatex(SMALL),
    [
      "\\begin{table}[t]",
      "  \\centering",
      "  \\caption{Coverage \\& cost (top-10)}",
      "  \\label{tab:small}",
      "  \\begin{tabular}{lrrrl}",
      "    \\toprule",
      "     & \\multicolumn{2}{c}{Retrieval} &  & \\\\",
      "    \\cmidrule(lr){2-3}",
      "    Run & Cov@10 & alpha\\_nDCG@10 & Tokens & Note \\\\",
      "    \\midrule",
      "    bm25 & \\underline{0.500} & 0.40 & 1200 & k1=0.9 \\\\",
      "    dense\\_e5 & \\textbf{0.600} & 0.40 & \\underline{1500} & 50\\% \\textless{}dup\\textgreater{} \\\\",
      "    hybrid & \\textbf{0.600} & -- & \\textbf{900} & -- \\\\",
      "    \\midrule",
      "    oracle & 0.900 & 0.90 & 100 & P* \\\\",
      "    \\bottomrule",
      "  \\end{tabular}",
      "  \\par\\smallskip",
      "  {\\footnotesize offline backends: lexical judge, extractive generator\\par}",
      "\\end{table}",
      "",
    ].join("\n"),
  );
});

Deno.test("tableLatex escapes every special character and uses a math minus", () => {
  const tex = tableLatex(
    {
      rowHeader: "a_b",
      columns: [{ key: "v", label: "#1 $x$ {y} ~z^ \\w", decimals: 1 }],
      rows: [{ label: "r&d", values: { v: -0.24 } }],
    },
    { float: false },
  );
  assert.equal(
    tex,
    [
      "\\begin{tabular}{lr}",
      "  \\toprule",
      "  a\\_b & \\#1 \\$x\\$ \\{y\\} \\textasciitilde{}z\\textasciicircum{} \\textbackslash{}w \\\\",
      "  \\midrule",
      "  r\\&d & $-$0.2 \\\\",
      "  \\bottomrule",
      "\\end{tabular}",
      "",
    ].join("\n"),
  );
});

Deno.test("tableLatex shows negative zero as 0 and honours placement", () => {
  const tex = tableLatex(
    { columns: [{ key: "v", label: "d" }], rows: [{ label: "r", values: { v: -0.0001 } }] },
    { placement: "htb" },
  );
  assert.match(tex, /^\\begin\{table\}\[htb\]\n/);
  assert.match(tex, /r & 0\.000 \\\\/);
});
