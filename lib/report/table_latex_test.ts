import assert from "node:assert/strict";
import { tableLatex } from "./table_latex.ts";
import { SMALL } from "./testdata/small_table.ts";

/** True when `pdflatex` runs here (the compile test is skipped otherwise). */
async function hasPdflatex(): Promise<boolean> {
  try {
    const out = await new Deno.Command("pdflatex", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

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

Deno.test("tableLatex spells the project's Unicode labels in plain-pdflatex LaTeX", () => {
  const tex = tableLatex(
    {
      rowHeader: "Run",
      columns: [
        { key: "a", label: "α-nDCG@10" },
        { key: "t", label: "Kendall τ (context vs report)" },
        { key: "p", label: "|P*|" },
      ],
      rows: [{ label: "βγδε κλμρσ", values: { a: 0.5, t: 0.25, p: 3 } }],
      notes: ["τ ≥ 3 ≤ 5 ± 0.1 × 2 → y – z — w… Järvelin naïve P̄ ∩ ² 本"],
    },
    { float: false },
  );
  assert.equal(
    tex,
    [
      "\\begin{tabular}{lrrr}",
      "  \\toprule",
      "  Run & \\ensuremath{\\alpha}-nDCG@10 & Kendall \\ensuremath{\\tau} (context vs report) & \\textbar{}P*\\textbar{} \\\\",
      "  \\midrule",
      "  \\ensuremath{\\beta}\\ensuremath{\\gamma}\\ensuremath{\\delta}\\ensuremath{\\varepsilon} " +
      "\\ensuremath{\\kappa}\\ensuremath{\\lambda}\\ensuremath{\\mu}\\ensuremath{\\rho}\\ensuremath{\\sigma}" +
      " & 0.500 & 0.250 & 3.000 \\\\",
      "  \\bottomrule",
      "\\end{tabular}",
      "\\par\\smallskip",
      "{\\footnotesize \\ensuremath{\\tau} \\ensuremath{\\geq} 3 \\ensuremath{\\leq} 5 \\ensuremath{\\pm} 0.1 " +
      '\\ensuremath{\\times} 2 \\ensuremath{\\rightarrow} y -- z --- w\\ldots{} J\\"{a}rvelin ' +
      'na\\"{\\i}ve \\={P} \\ensuremath{\\cap} \\ensuremath{^{2}} (U+672C)\\par}',
      "",
    ].join("\n"),
  );
  assert.doesNotMatch(tex, /[^ -~\n]/, "only printable ASCII reaches pdflatex");
});

Deno.test({
  name: "tableLatex output with Unicode labels compiles with plain pdflatex",
  ignore: !(await hasPdflatex()),
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const table = tableLatex({
        caption: "Kendall τ of α-nDCG against |P*| — τ ≥ 3",
        label: "tab:unicode",
        columns: [
          { key: "a", label: "α-nDCG@10", group: "Context ≤ 10" },
          { key: "t", label: "Kendall τ" },
          { key: "p", label: "|P*|" },
        ],
        rows: [{ label: "βγδε κλμρσ “q” • ß Ø", values: { a: 0.5, t: -0.25, p: 3 } }],
        notes: ["± × → – — … Järvelin naïve P̄ ∩ ² ΓΔΣΩ 本"],
      });
      const doc = "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n" +
        table + tableLatex(SMALL) + "\\end{document}\n";
      await Deno.writeTextFile(`${dir}/t.tex`, doc);
      const out = await new Deno.Command("pdflatex", {
        args: ["-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const log = new TextDecoder().decode(out.stdout);
      assert.ok(out.success, log.split("\n").filter((l) => l.startsWith("!")).join("\n") || log);
      assert.ok((await Deno.stat(`${dir}/t.pdf`)).size > 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("tableLatex with siunitx aligns numbers in S columns and braces the rest", () => {
  const tex = tableLatex({
    columns: [
      { key: "cov", label: "Cov", group: "sample", direction: "higher" },
      { key: "tau", label: "τ", group: "sample", decimals: 2 },
    ],
    rows: [
      { label: "a", values: { cov: 0.5, tau: -0.25 } },
      { label: "b", values: { cov: 12.25, tau: "n/a (n=2)" } },
      { label: "c", values: { cov: null, tau: 1 } },
    ],
  }, { float: false, siunitx: true });
  assert.equal(
    tex,
    [
      "% requires \\usepackage{booktabs,siunitx}",
      "\\begin{tabular}{lS[table-format=2.3]S[table-format=-1.2]}",
      "  \\toprule",
      "   & \\multicolumn{2}{c}{sample} \\\\",
      "  \\cmidrule(lr){2-3}",
      "  Run & {Cov} & {\\ensuremath{\\tau}} \\\\",
      "  \\midrule",
      "  a & {\\underline{0.500}} & -0.25 \\\\",
      "  b & {\\textbf{12.250}} & {n/a (n=2)} \\\\",
      "  c & {--} & 1.00 \\\\",
      "  \\bottomrule",
      "\\end{tabular}",
      "",
    ].join("\n"),
  );
});
