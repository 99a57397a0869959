// Text normalisation for key point span checks (white space, quotes, dashes).

import { analyze } from "@lib/text/mod.ts";

/** White space collapsed, curly quotes and primes made straight, dashes made hyphens. */
export function normalizeText(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201A\u201B\u2032\u0060\u00B4]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u00A0/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Distinct analysed terms (stemmed, stop words removed). */
export function termSet(text: string): Set<string> {
  return new Set(analyze(text));
}

/** Jaccard similarity of two term sets (0 when both are empty). */
export function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  const union = a.size + b.size - inter;
  return union ? inter / union : 0;
}

const NEGATION =
  /\b(not|no|never|none|nobody|nothing|neither|nor|cannot|without|denied|denies|deny|refused|failed|\w+n't)\b/i;

/** True when the text has a negation word. */
export function negated(text: string): boolean {
  return NEGATION.test(text);
}
