import assert from "node:assert/strict";
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
