// Reading labels (passage letters) from a chat answer's log-probabilities and text.
import type { TokenLogprob } from "@lib/llm/mod.ts";

/** The label a token names (spaces, brackets and punctuation around it dropped), if any. */
function labelOf(token: string, labels: ReadonlySet<string>): string | undefined {
  const t = token.replace(/[\s[\]()*:.,>]/g, "");
  return labels.has(t) ? t : undefined;
}

/** Tokens an answer may open with before its label: punctuation, spaces, the word "Passage". */
const OPENING = /^(?:[\s[\](){}*#:>.,"'`]*|\s*passage\s*)$/i;

/**
 * The log-probabilities of the labels at the answer's label token: the first
 * generated token after any opening punctuation, spaces or the word "Passage",
 * when it names a label; that token and its alternatives, the highest
 * log-probability kept per label (`B` and ` B` are one label). `undefined` when
 * the answer does not open with a label (prose such as "I think ..." is not
 * read as label `I` when `bracketed`: the label must then follow a `[`, as in
 * `[I] > ...`).
 */
export function labelLogprobs(
  tokens: readonly TokenLogprob[],
  labels: readonly string[],
  opts: { bracketed?: boolean } = {},
): Map<string, number> | undefined {
  const set = new Set(labels);
  const at = tokens.findIndex((x) => !OPENING.test(x.token));
  const t = tokens[at];
  if (!t || labelOf(t.token, set) === undefined) return undefined;
  const before = tokens.slice(0, at + 1).map((x) => x.token).join("");
  if (opts.bracketed && !/\[\s*[A-Z]?\s*$/.test(before.trimEnd())) return undefined;
  const out = new Map<string, number>();
  for (const a of [{ token: t.token, logprob: t.logprob }, ...t.top]) {
    const label = labelOf(a.token, set);
    if (label !== undefined && !(out.get(label)! >= a.logprob)) out.set(label, a.logprob);
  }
  return out;
}

/** Passage letters `A`, `B`, ... in order. */
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * An answer naming lettered passages (`[B] > [A]`, or a line `B > A` or `B`) rewritten
 * with numbered identifiers (`[2] > [1]`), so the permutation reader reads it.
 */
export function lettersToNumbers(text: string): string {
  const num = (l: string) => `[${LETTERS.indexOf(l) + 1}]`;
  return text
    .replace(/\[\s*([A-Z])\s*\]/g, (_, l: string) => num(l))
    .split(/\r?\n/)
    .map((line) =>
      /^\s*[A-Z](?:\s*>\s*[A-Z])*\s*$/.test(line) ? line.replace(/[A-Z]/g, (l) => num(l)) : line
    )
    .join("\n");
}
