import assert from "node:assert/strict";
import { analyze } from "./analyze.ts";
import { ENGLISH_STOP_WORDS } from "./stop_words.ts";

Deno.test("analyze applies possessive removal, lower-casing, stop words and Porter", () => {
  assert.deepEqual(analyze("The company's running costs rose."), [
    "compani",
    "run",
    "cost",
    "rose",
  ]);
  assert.deepEqual(analyze("John’s DOGS' relational Hopefully"), [
    "john",
    "dog",
    "relat",
    "hopefulli",
  ]);
});

Deno.test("analyze removes exactly Lucene's 33 English stop words", () => {
  assert.equal(ENGLISH_STOP_WORDS.size, 33);
  assert.deepEqual(analyze([...ENGLISH_STOP_WORDS].join(" ")), []);
  // Words outside the list are kept (Lucene's list is short).
  assert.deepEqual(analyze("he she we would"), ["he", "she", "we", "would"]);
  // A possessive stop word is still a stop word; upper case too.
  assert.deepEqual(analyze("THE It's"), []);
});

Deno.test("analyze keeps numbers and acronyms as single terms", () => {
  // Porter strips the final "s" of "u.s", as Lucene's EnglishAnalyzer does.
  assert.deepEqual(analyze("U.S. GDP rose 3.5% to $1,000 in 1990s"), [
    "u.",
    "gdp",
    "rose",
    "3.5",
    "1,000",
    "1990",
  ]);
  assert.deepEqual(analyze(""), []);
});
