import assert from "node:assert/strict";
import { parseAnswerabilityPairs } from "./parse_answerability_pairs.ts";

Deno.test("parseAnswerabilityPairs reads JSONL pairs in order", () => {
  const text =
    '{"id":"a","question":"Q?","context":"C."}\n\n{"id":7,"question":"R?","context":"D."}\n';
  assert.deepEqual(parseAnswerabilityPairs(text, { file: "p.jsonl" }), [
    { id: "a", question: "Q?", context: "C." },
    { id: "7", question: "R?", context: "D." },
  ]);
});

Deno.test("parseAnswerabilityPairs lists every bad line", () => {
  const text =
    '{"id":"a","question":"Q?","context":"C."}\nnot json\n{"id":"b","question":3}\n{"id":"a","question":"Q","context":"C"}\n[]\n';
  assert.throws(() => parseAnswerabilityPairs(text, { file: "p.jsonl" }), {
    name: "SyntaxError",
    message:
      'Cannot read pairs "p.jsonl": 5 problem(s); each line needs {"id","question","context"}\n' +
      "p.jsonl:2: line is not valid JSON\n" +
      "p.jsonl:3: question: expected a string\n" +
      "p.jsonl:3: context: expected a string\n" +
      'p.jsonl:4: id: "a" is already on line 1 with another question or context\n' +
      'p.jsonl:5: expected an object with "id", "question" and "context"',
  });
});

Deno.test("parseAnswerabilityPairs drops an exact repeat and refuses an empty file", () => {
  const line = '{"id":"a","question":"Q?","context":"C."}';
  assert.deepEqual(parseAnswerabilityPairs(`${line}\n${line}\n`, { file: "p.jsonl" }), [
    { id: "a", question: "Q?", context: "C." },
  ]);
  assert.throws(
    () => parseAnswerabilityPairs("\n \n", { file: "p.jsonl" }),
    /p\.jsonl: the file is empty/,
  );
});
