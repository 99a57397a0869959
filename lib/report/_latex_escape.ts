/**
 * Private: escape text for LaTeX text mode so it compiles with plain pdflatex.
 *
 * @module
 */
import { latexAccents, latexChar } from "./_latex_unicode.ts";

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
  "|": "\\textbar{}",
};

/** A character with its combining marks, or stray marks at the start. */
const CLUSTER = /(\P{M})(\p{M}*)|\p{M}+/gu;

/** `(U+672C)` for each code point of text without a LaTeX spelling. */
function unknown(text: string): string {
  return [...text].map((ch) =>
    `(U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`
  ).join("");
}

/**
 * Escape `text` for LaTeX text mode: the special characters get commands (`|`
 * becomes `\textbar{}`), newlines become spaces, Greek letters and math symbols
 * become `\ensuremath{...}` (`α` -> `\ensuremath{\alpha}`, `≥` -> `\ensuremath{\geq}`),
 * typographic punctuation its TeX ligature (`–` -> `--`, `—` -> `---`, `…` ->
 * `\ldots{}`) and accented Latin letters accent commands (`é` -> `\'{e}`).
 * A character with no such spelling (e.g. CJK) is written as `(U+672C)`.
 */
export function latexEscape(text: string): string {
  return text.normalize("NFC").replace(/\r?\n/g, " ").replace(
    CLUSTER,
    (cluster: string, base: string | undefined, marks: string | undefined) => {
      if (base === undefined) return unknown(cluster);
      const head = base.charCodeAt(0) < 0x80 ? REPLACEMENTS[base] ?? base : latexChar(base);
      if (head === undefined) return unknown(cluster);
      if (!marks) return head;
      return latexAccents(head, marks) ?? head + unknown(marks);
    },
  );
}
