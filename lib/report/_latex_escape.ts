/**
 * Private: escape text for LaTeX text mode.
 *
 * @module
 */

const REPLACEMENTS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  "$": "\\$",
  "#": "\\#",
  "_": "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
};

/** Escape the LaTeX special characters of `text` (and fold newlines into spaces). */
export function latexEscape(text: string): string {
  return text.replace(/[\\&%$#_{}~^<>]/g, (ch) => REPLACEMENTS[ch]).replace(/\r?\n/g, " ");
}
