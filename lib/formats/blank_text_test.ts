import assert from "node:assert/strict";
import { blankText } from "./blank_text.ts";
import { InputError } from "./input_error.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("blankText: ASCII text, white space, and empty", () => {
  assert.equal(blankText(enc(""), "a.txt"), true);
  assert.equal(blankText(enc(" \t\r\n\v\f"), "a.txt"), true);
  assert.equal(blankText(enc("\n\nq1 0 d1 1\n"), "a.txt"), false);
});

Deno.test("blankText: non-ASCII text is decoded; a byte-order mark and U+00A0 are not content", () => {
  assert.equal(blankText(new Uint8Array([0xef, 0xbb, 0xbf, 0x0a]), "a.txt"), true);
  assert.equal(blankText(enc("\u00a0\n"), "a.txt"), true);
  assert.equal(blankText(enc("q\u00e9 0 d1 1\n"), "a.txt"), false);
});

Deno.test("blankText: invalid UTF-8 names the line and column", () => {
  const bytes = new Uint8Array([...enc("q1 0 d1 1\nq2 0 d"), 0xff, ...enc(" 1\n")]);
  let error: InputError | undefined;
  try {
    blankText(bytes, "q.txt");
  } catch (e) {
    error = e as InputError;
  }
  assert.ok(error instanceof InputError);
  assert.equal(error.problems[0].line, 2);
  assert.equal(error.problems[0].file, "q.txt");
  assert.equal(error.problems[0].message.includes("byte 0xff at column 7"), true);
});
