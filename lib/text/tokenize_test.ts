import assert from "node:assert/strict";
import { tokenize } from "./tokenize.ts";

Deno.test("tokenize keeps numbers, acronyms, apostrophes and letter-digit words", () => {
  assert.deepEqual(
    tokenize("The U.S. economy grew 3.5% in 2023; 1,000 jobs didn't return (covid19)."),
    [
      "the",
      "u.s",
      "economy",
      "grew",
      "3.5",
      "in",
      "2023",
      "1,000",
      "jobs",
      "didn't",
      "return",
      "covid19",
    ],
  ); // deno-fmt-ignore
});

Deno.test("tokenize drops punctuation and does not join across mismatched separators", () => {
  assert.deepEqual(tokenize("a.5 5.a -- x,y 3,5 foo_bar 'quoted' end."), [
    "a",
    "5",
    "5",
    "a",
    "x",
    "y",
    "3,5",
    "foo_bar",
    "quoted",
    "end",
  ]); // deno-fmt-ignore
  assert.deepEqual(tokenize("  ...  !!! "), []);
  assert.deepEqual(tokenize(""), []);
});

Deno.test("tokenize handles curly apostrophes, accents, ideographs and Greek", () => {
  assert.deepEqual(tokenize("O’Neil’s café naïve 東京 ΟΔΟΣ"), [
    "o’neil’s",
    "café",
    "naïve",
    "東",
    "京",
    "οδος",
  ]);
  // A combining mark stays inside its word.
  assert.deepEqual(tokenize("cafe\u0301 ok"), ["cafe\u0301", "ok"]);
});

Deno.test("tokenize cuts words longer than 255 characters into pieces", () => {
  const long = "x".repeat(600);
  const tokens = tokenize(`a ${long} b`);
  assert.deepEqual(tokens.map((t) => t.length), [1, 255, 255, 90, 1]);
});
