// One token through the English analyzer: possessives, stop words, stemming.

import { ENGLISH_STOP_WORDS } from "./stop_words.ts";
import { porterStem } from "./porter_stem.ts";

/** Raw token (as written in the text) -> analyzed term, or null for a stop word. */
const cache = new Map<string, string | null>();
const CACHE_LIMIT = 1_000_000;

/** Possessive `'s` / `’s` / `＇s` (either case of s) at the end of a token. */
function stripPossessive(token: string): string {
  const n = token.length;
  if (n < 2) return token;
  const s = token.charCodeAt(n - 1);
  if (s !== 0x73 && s !== 0x53) return token;
  const q = token.charCodeAt(n - 2);
  return q === 0x27 || q === 0x2019 || q === 0xff07 ? token.slice(0, n - 2) : token;
}

/**
 * Lower-cases per code point like Java's `Character.toLowerCase` (no
 * context-dependent final sigma, no expansion of `İ` to two characters).
 */
function lowerCase(token: string): string {
  let ascii = true;
  for (let i = 0; i < token.length; i++) {
    if (token.charCodeAt(i) > 127) {
      ascii = false;
      break;
    }
  }
  if (ascii) return token.toLowerCase();
  let out = "";
  for (const ch of token) {
    const low = ch.toLowerCase();
    out += [...low].length === 1 ? low : ch === "\u0130" ? "i" : ch;
  }
  return out;
}

/**
 * Analyzes one raw token without the cache: possessive removal, lower-casing,
 * stop words, Porter stemming. For callers that remember raw tokens themselves.
 */
export function analyzeUncached(raw: string): string | null {
  const lower = lowerCase(stripPossessive(raw));
  return lower.length === 0 || ENGLISH_STOP_WORDS.has(lower) ? null : porterStem(lower);
}

/** Analyzes one raw token: possessive removal, lower-casing, stop words, Porter stemming. */
export function analyzeToken(raw: string): string | null {
  let term = cache.get(raw);
  if (term !== undefined) return term;
  term = analyzeUncached(raw);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, term);
  return term;
}
