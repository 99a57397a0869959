/**
 * Private: LaTeX spellings of the non-ASCII characters the workbench's labels and
 * texts use, so tables compile with plain pdflatex (no unicode-math, no fontspec).
 *
 * @module
 */

const GREEK = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "varepsilon",
  "zeta",
  "eta",
  "theta",
  "iota",
  "kappa",
  "lambda",
  "mu",
  "nu",
  "xi",
  "omicron",
  "pi",
  "rho",
  "varsigma",
  "sigma",
  "tau",
  "upsilon",
  "phi",
  "chi",
  "psi",
  "omega",
];
const CAPITAL_GREEK: Record<string, string> = {
  "Γ": "Gamma",
  "Δ": "Delta",
  "Θ": "Theta",
  "Λ": "Lambda",
  "Ξ": "Xi",
  "Π": "Pi",
  "Σ": "Sigma",
  "Υ": "Upsilon",
  "Φ": "Phi",
  "Ψ": "Psi",
  "Ω": "Omega",
};

/** Math-mode commands, written as `\ensuremath{...}` (valid in text and math mode). */
const MATH: Record<string, string> = {
  "≥": "\\geq",
  "≤": "\\leq",
  "≠": "\\neq",
  "≈": "\\approx",
  "≡": "\\equiv",
  "∼": "\\sim",
  "∝": "\\propto",
  "±": "\\pm",
  "∓": "\\mp",
  "×": "\\times",
  "÷": "\\div",
  "·": "\\cdot",
  "⋅": "\\cdot",
  "−": "-",
  "→": "\\rightarrow",
  "←": "\\leftarrow",
  "↔": "\\leftrightarrow",
  "⇒": "\\Rightarrow",
  "⇐": "\\Leftarrow",
  "⇔": "\\Leftrightarrow",
  "↑": "\\uparrow",
  "↓": "\\downarrow",
  "∩": "\\cap",
  "∪": "\\cup",
  "∈": "\\in",
  "∉": "\\notin",
  "⊂": "\\subset",
  "⊆": "\\subseteq",
  "⊃": "\\supset",
  "⊇": "\\supseteq",
  "∅": "\\emptyset",
  "∀": "\\forall",
  "∃": "\\exists",
  "¬": "\\neg",
  "∧": "\\wedge",
  "∨": "\\vee",
  "∞": "\\infty",
  "∑": "\\sum",
  "∏": "\\prod",
  "∂": "\\partial",
  "∇": "\\nabla",
  "√": "\\surd",
  "′": "\\prime",
  "°": "^{\\circ}",
  "¹": "^{1}",
  "²": "^{2}",
  "³": "^{3}",
  "µ": "\\mu",
  "ϵ": "\\epsilon",
  "ϑ": "\\vartheta",
  "ϕ": "\\varphi",
};
for (let i = 0; i < GREEK.length; i++) {
  // U+03B1 α .. U+03C9 ω; omicron is a plain o in math.
  MATH[String.fromCharCode(0x3b1 + i)] = GREEK[i] === "omicron" ? "o" : `\\${GREEK[i]}`;
}
for (const [ch, name] of Object.entries(CAPITAL_GREEK)) MATH[ch] = `\\${name}`;

/** Text-mode replacements (the `{}` keeps a following letter from joining the command). */
const TEXT: Record<string, string> = {
  "\u00a0": "~",
  "\u2009": "\\,",
  "\u200b": "",
  "\u00ad": "",
  "–": "--",
  "—": "---",
  "‐": "-",
  "‑": "-",
  "…": "\\ldots{}",
  "‘": "`",
  "’": "'",
  "‚": ",",
  "“": "``",
  "”": "''",
  "„": ",,",
  "«": "\\ensuremath{\\ll}",
  "»": "\\ensuremath{\\gg}",
  "•": "\\textbullet{}",
  "†": "\\dag{}",
  "‡": "\\ddag{}",
  "§": "\\S{}",
  "¶": "\\P{}",
  "©": "\\copyright{}",
  "£": "\\pounds{}",
  "ß": "\\ss{}",
  "æ": "\\ae{}",
  "Æ": "\\AE{}",
  "œ": "\\oe{}",
  "Œ": "\\OE{}",
  "ø": "\\o{}",
  "Ø": "\\O{}",
  "å": "\\aa{}",
  "Å": "\\AA{}",
  "ł": "\\l{}",
  "Ł": "\\L{}",
  "ı": "\\i{}",
};

/** Accent commands for combining marks (U+0300..), applied as `\cmd{base}`. */
const ACCENT: Record<string, string> = {
  "\u0300": "`",
  "\u0301": "'",
  "\u0302": "^",
  "\u0303": "~",
  "\u0304": "=",
  "\u0306": "u",
  "\u0307": ".",
  "\u0308": '"',
  "\u030a": "r",
  "\u030b": "H",
  "\u030c": "v",
  "\u0323": "d",
  "\u0327": "c",
  "\u0331": "b",
};

/**
 * The LaTeX spelling of one non-ASCII character (precomposed accented letters
 * included, as accent commands), or `undefined` when there is none.
 */
export function latexChar(ch: string): string | undefined {
  if (MATH[ch] !== undefined) return `\\ensuremath{${MATH[ch]}}`;
  if (TEXT[ch] !== undefined) return TEXT[ch];
  // Accented Latin letters: a plain letter plus combining accents (é = e + U+0301).
  const decomposed = ch.normalize("NFD");
  if (decomposed.length < 2 || decomposed.charCodeAt(0) >= 0x80) return undefined;
  const letter = decomposed[0] === "i" ? "\\i" : decomposed[0] === "j" ? "\\j" : decomposed[0];
  return latexAccents(letter, decomposed.slice(1));
}

/**
 * Puts accent commands for combining `marks` over `base` (already LaTeX), or
 * `undefined` when a mark has no accent command.
 */
export function latexAccents(base: string, marks: string): string | undefined {
  let out = base;
  for (const mark of marks) {
    const accent = ACCENT[mark];
    if (accent === undefined) return undefined;
    out = `\\${accent}{${out}}`;
  }
  return out;
}
