import assert from "node:assert/strict";
import fc from "fast-check";
import { locateSpan } from "./locate_span.ts";

Deno.test("locateSpan: start as a share of words before it; case, spacing and edge punctuation ignored", () => {
  assert.deepEqual(locateSpan("One two three four.", "THREE four"), {
    found: true,
    start: 8,
    position: 50,
  });
  assert.deepEqual(locateSpan("One two three four.", "one"), {
    found: true,
    start: 0,
    position: 0,
  });
  assert.deepEqual(locateSpan("A b c d e f g h i j", "j"), {
    found: true,
    start: 18,
    position: 90,
  });
  assert.deepEqual(locateSpan('He said: "It fell."  Then   rain.', "it fell then rain"), {
    found: true,
    start: 9,
    position: 100 * 2 / 6, // He said | It fell Then rain
  });
});

Deno.test("locateSpan: a span not in the text, or empty, is not found", () => {
  const none = { found: false, start: null, position: null };
  assert.deepEqual(locateSpan("One two three.", "two four"), none);
  assert.deepEqual(locateSpan("One two three.", ""), none);
  assert.deepEqual(locateSpan("", "one"), none);
});

/** The search without remembered words: every call splits the text anew. */
function reference(text: string, span: string) {
  const split = (t: string) =>
    [...t.matchAll(/\S+/g)].map((m) => ({
      word: m[0].toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""),
      start: m.index!,
    }));
  const hay = split(text).filter((w) => w.word);
  const needle = split(span).map((w) => w.word).filter(Boolean);
  for (let i = 0; needle.length && i + needle.length <= hay.length; i++) {
    if (needle.every((w, j) => hay[i + j].word === w)) {
      return { found: true, start: hay[i].start, position: (100 * i) / hay.length };
    }
  }
  return { found: false, start: null, position: null };
}

Deno.test("locateSpan: remembering texts' words changes no answer, over many texts and spans", () => {
  const word = fc.constantFrom("Storm", "bridge,", "(harbor)", "ferry.", "é", "1982", "--", "B");
  const text = fc.array(word, { maxLength: 30 }).map((w) => w.join(" "));
  // Queries over a pool of 40 texts (more than are remembered), in any order, each
  // with a span cut from it or from another text.
  fc.assert(
    fc.property(
      fc.array(text, { minLength: 1, maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat(3)), { maxLength: 200 }),
      (texts, queries) => {
        for (const [t, s, from, len] of queries) {
          const source = texts[s % texts.length].split(" ");
          const span = source.slice(from % (source.length + 1), from + len).join(" ").toUpperCase();
          const target = texts[t % texts.length];
          assert.deepEqual(locateSpan(target, span), reference(target, span));
        }
      },
    ),
    { numRuns: 200 },
  );
});
