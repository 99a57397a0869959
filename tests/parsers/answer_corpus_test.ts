/**
 * The answer corpus: realistic model answers for every parser (prose around
 * the answer, fences and bold, numbering, refusals, cut answers, the papers'
 * own formats), each with the value to read or "unparsed". Every parser must
 * read exactly that. Reasoning models' answers (`<think>` blocks, closed, cut
 * or opened in the prompt) are read by their final answer only; denied labels,
 * ratings only weighed and answers corrected later are never read as values.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseEntailment } from "@lib/keypoints/mod.ts";
import { ANSWERS_DIR, CORPUS_FILES, PARSERS } from "./_corpus.ts";

interface Case {
  answer: string;
  expect: unknown;
  why: string;
  [arg: string]: unknown;
}

const dir = ANSWERS_DIR;
const files = CORPUS_FILES;

Deno.test("the answer corpus covers every parser", () => {
  const named = files.map((f) => JSON.parse(Deno.readTextFileSync(join(dir, f))).parser as string);
  const missing = Object.keys(PARSERS).filter((p) => !named.includes(p));
  assert.deepEqual(missing, []);
});

Deno.test("the answer corpus holds at least 200 answers, reasoning models' answers for every parser", () => {
  const all = files.map((f) =>
    JSON.parse(Deno.readTextFileSync(join(dir, f))) as { parser: string; cases: Case[] }
  );
  const total = all.reduce((n, f) => n + f.cases.length, 0);
  assert.ok(total >= 200, `${total} answers`);
  const without = all.filter((f) => !f.cases.some((c) => /<\/?think/.test(c.answer)))
    .map((f) => f.parser);
  assert.deepEqual(without, []);
});

for (const file of files) {
  Deno.test(`answer corpus ${file}: every answer reads as stated or unparsed`, () => {
    const { parser, args, cases } = JSON.parse(Deno.readTextFileSync(join(dir, file))) as {
      parser: string;
      args: Record<string, unknown>;
      cases: Case[];
    };
    const parse = PARSERS[parser];
    assert.ok(parse, `${file}: unknown parser ${parser}`);
    assert.ok(cases.length >= 5, `${file}: too few cases`);
    assert.ok(cases.some((c) => c.expect === "unparsed"), `${file}: no unparsed case`);
    const wrong: string[] = [];
    cases.forEach((c, i) => {
      const got = parse(c.answer, { ...args, ...c });
      const want = c.expect === "unparsed" ? "unparsed" : JSON.stringify(c.expect);
      const read = got.ok ? JSON.stringify(got.value) : "unparsed";
      if (read !== want) {
        wrong.push(
          `${file} case ${i + 1} (${c.why}): ${
            JSON.stringify(c.answer)
          } read ${read}, expected ${want}`,
        );
      }
      if (!got.ok) assert.equal(got.raw, c.answer, `${file} case ${i + 1}: raw text kept`);
    });
    assert.deepEqual(wrong, []);
  });
}

Deno.test("answer corpus: Long2RAG's bracketed labels read through the entailment parser", () => {
  assert.deepEqual(parseEntailment("The response gives the same year. [Yes]"), {
    ok: true,
    value: { label: "yes", reason: "", snippet: "" },
  });
  assert.equal(parseEntailment("[Yes] and [Neutral]").ok, false);
});
