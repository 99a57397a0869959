// The Porter stemmer, as Lucene's `PorterStemFilter` applies it.

import { stemmer } from "stemmer";

/**
 * Stems a lower-case English word with the Porter (1980) algorithm, as Lucene's
 * `PorterStemFilter` does (including the reference implementation's `bli` ->
 * `ble` and `logi` -> `log` rules). Words of one or two characters are
 * returned unchanged.
 *
 * @param word A lower-case token (digits and other characters are allowed).
 * @returns The stem.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(porterStem("running"), "run");
 * assert.equal(porterStem("relational"), "relat");
 * ```
 */
export function porterStem(word: string): string {
  // The npm implementation needs a non-empty stem before step 1a's suffixes.
  if (word === "ies") return "i";
  if (word === "sses") return "ss";
  return stemmer(word);
}
