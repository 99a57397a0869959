import assert from "node:assert/strict";
import { splitSentences } from "./split_sentences.ts";

Deno.test("splitSentences keeps titles, initials, acronyms and decimals inside sentences", () => {
  assert.deepEqual(
    splitSentences(
      "Mr. Smith met Dr. J. Watson in the U.S. Senate. Growth was 3.5 percent! Was it? No. 5 won.",
    ),
    [
      "Mr. Smith met Dr. J. Watson in the U.S. Senate.",
      "Growth was 3.5 percent!",
      "Was it?",
      "No. 5 won.",
    ],
  );
});

Deno.test("splitSentences ends a sentence at an acronym only before a sentence opener", () => {
  assert.deepEqual(
    splitSentences("Talks ended at 5 p.m. The vote follows. Acme Inc. Shares fell."),
    [
      "Talks ended at 5 p.m.",
      "The vote follows.",
      "Acme Inc. Shares fell.",
    ],
  );
});

Deno.test("splitSentences splits at paragraph breaks and closing quotes", () => {
  assert.deepEqual(splitSentences('Headline\n\n"It is over." He left.\nlower case. stays'), [
    "Headline",
    '"It is over."',
    "He left.\nlower case. stays",
  ]);
  assert.deepEqual(splitSentences("   "), []);
});
