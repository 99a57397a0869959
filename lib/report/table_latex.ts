/**
 * LaTeX (booktabs) rendering of a table.
 *
 * @module
 */
import { layout } from "./_cells.ts";
import { latexEscape } from "./_latex_escape.ts";
import type { Table } from "./types.ts";

/** Options of {@linkcode tableLatex}. */
export interface TableLatexOptions {
  /** Wrap the tabular in a `table` float with caption and label. Default true. */
  float?: boolean;
  /** Float placement. Default `t`. */
  placement?: string;
  /**
   * Align numeric columns on the decimal point with siunitx `S` columns
   * (`table-format` from the widest value; marked, missing and text cells
   * braced); load `\usepackage{siunitx}`. Default false (`r` columns).
   */
  siunitx?: boolean;
}

/**
 * Render a table as LaTeX using booktabs rules (`\toprule`, `\midrule`,
 * `\cmidrule`, `\bottomrule`; load `\usepackage{booktabs}`). Best values are
 * `\textbf{}`, worst `\underline{}`; null cells show `--`; negative numbers use
 * a math minus; labels, strings, caption and notes are escaped, with Greek
 * letters and math symbols as `\ensuremath{...}` (`α` -> `\ensuremath{\alpha}`),
 * `|` as `\textbar{}`, dashes and ellipses as `--`, `---`, `\ldots{}` and accented
 * letters as accent commands, so the output compiles with plain pdflatex
 * (characters with no LaTeX spelling, e.g. CJK, appear as `(U+672C)`). Column groups
 * become `\multicolumn` headers with a `\cmidrule` under each; row groups are
 * separated by `\midrule`. The caption and label go above the tabular (paper
 * convention), notes below it in `\footnotesize`.
 *
 * @param t The table (validated as by {@linkcode table}).
 * @param opts `float` (default true) and `placement` (default `t`).
 * @returns The LaTeX source, ending with a newline.
 * @throws {TypeError | RangeError} When the table is invalid (see {@linkcode table}).
 * @example
 * ```ts
 * const tex = tableLatex({
 *   caption: "Coverage of the top 10 passages.",
 *   label: "tab:cov",
 *   columns: [{ key: "cov", label: "Cov@10", direction: "higher" }],
 *   rows: [{ label: "bm25", values: { cov: 0.5 } }, { label: "dense", values: { cov: 0.7 } }],
 * });
 * ```
 */
export function tableLatex(t: Table, opts: TableLatexOptions = {}): string {
  const { table: tb, cells, spans, groupStarts, hasGroups } = layout(t);
  const float = opts.float ?? true;
  const out: string[] = [];
  const numeric = tb.columns.map((_, j) => cells.some((r) => r[j].numeric));
  const indent = float ? "  " : "";
  const row = (parts: string[]) => `${indent}  ${parts.join(" & ").trimEnd()} \\\\`;
  if (float) {
    out.push(`\\begin{table}[${opts.placement ?? "t"}]`, "  \\centering");
    if (tb.caption) out.push(`  \\caption{${latexEscape(tb.caption)}}`);
    if (tb.label) out.push(`  \\label{${tb.label}}`);
  }
  const si = opts.siunitx ?? false;
  const spec = tb.columns.map((_, j) => {
    if (!numeric[j]) return "l";
    if (!si) return "r";
    const texts = cells.flatMap((r) => (r[j].numeric ? [r[j].text] : []));
    const int = Math.max(1, ...texts.map((x) => x.replace(/^-/, "").split(".")[0].length));
    const dec = Math.max(0, ...texts.map((x) => x.split(".")[1]?.length ?? 0));
    const sign = texts.some((x) => x.startsWith("-")) ? "-" : "";
    return `S[table-format=${sign}${int}${dec ? `.${dec}` : ""}]`;
  });
  const brace = (j: number, text: string) => (si && numeric[j] ? `{${text}}` : text);
  if (si) out.push(`${indent}% requires \\usepackage{booktabs,siunitx}`);
  out.push(`${indent}\\begin{tabular}{l${spec.join("")}}`);
  out.push(`${indent}  \\toprule`);
  if (hasGroups) {
    const parts = [""];
    const rules: string[] = [];
    for (const s of spans) {
      if (s.group === undefined) {
        for (let k = 0; k < s.length; k++) parts.push("");
        continue;
      }
      parts.push(`\\multicolumn{${s.length}}{c}{${latexEscape(s.group)}}`);
      rules.push(`\\cmidrule(lr){${s.start + 2}-${s.start + 1 + s.length}}`);
    }
    out.push(row(parts));
    out.push(`${indent}  ${rules.join(" ")}`);
  }
  out.push(
    row([latexEscape(tb.rowHeader), ...tb.columns.map((c, j) => brace(j, latexEscape(c.label)))]),
  );
  out.push(`${indent}  \\midrule`);
  tb.rows.forEach((r, i) => {
    if (groupStarts[i]) out.push(`${indent}  \\midrule`);
    const parts = cells[i].map((c, j) => {
      if (c.value === null) return brace(j, "--");
      if (si && c.numeric && !c.mark) return c.text;
      const text = c.numeric ? c.text.replace(/^-/, "$-$") : latexEscape(c.text);
      if (c.mark === "best") return brace(j, `\\textbf{${text}}`);
      if (c.mark === "worst") return brace(j, `\\underline{${text}}`);
      return brace(j, text);
    });
    out.push(row([latexEscape(r.label), ...parts]));
  });
  out.push(`${indent}  \\bottomrule`, `${indent}\\end{tabular}`);
  if (tb.notes.length > 0) {
    out.push(`${indent}\\par\\smallskip`);
    for (const note of tb.notes) out.push(`${indent}{\\footnotesize ${latexEscape(note)}\\par}`);
  }
  if (float) out.push("\\end{table}");
  return out.join("\n") + "\n";
}
