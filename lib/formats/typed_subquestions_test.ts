import assert from "node:assert/strict";
import { join } from "node:path";
import { inputError } from "./_testing.ts";
import {
  parseCoverageJudgments,
  parseDecompositions,
  readDecompositions,
} from "./typed_subquestions.ts";

Deno.test("decompositions keep sub-questions with their types", async () => {
  const text = JSON.stringify([{
    question: "How do comets form?",
    sub_questions_with_types: [
      { sub_question: "What is a comet?", type: "background" },
      { sub_question: "Where do they come from?", type: "core" },
      { sub_question: "Can I see one?", type: "follow-up" },
    ],
  }]);
  const path = join(await Deno.makeTempDir(), "d.json");
  await Deno.writeTextFile(path, text);
  assert.deepEqual((await readDecompositions(path))[0].subQuestions.map((s) => s.type), [
    "background",
    "core",
    "follow-up",
  ]);
  const bad = text.replace('"core"', '"central"');
  assert.equal(
    inputError(() => parseDecompositions(bad, { file: "d.json" })).message,
    'd.json: [0].sub_questions_with_types[1].type: expected one of core, background, follow-up, found "central"',
  );
});

Deno.test("coverage judgments read the span and refuse other labels", () => {
  assert.deepEqual(
    parseCoverageJudgments(
      '[{"question": "a?", "judgment": "answered", "text_span": "A."}, {"question": "b?", "judgment": "unanswered"}]',
      {
        file: "c",
      },
    ),
    [{ question: "a?", judgment: "answered", textSpan: "A." }, {
      question: "b?",
      judgment: "unanswered",
    }],
  );
  assert.match(
    inputError(() => parseCoverageJudgments('{"a": 1}', { file: "c" })).message,
    /c: expected a JSON list/,
  );
  assert.match(
    inputError(() =>
      parseCoverageJudgments('[{"question": "a?", "judgment": "yes"}]', { file: "c" })
    ).message,
    /c: \[0\]\.judgment: expected one of answered, unanswered/,
  );
});

Deno.test("decompositions: JSONL, lenient type names, and untyped sub-questions on request", () => {
  const line = (types: unknown[]) =>
    JSON.stringify({
      question: "Q?",
      sub_questions_with_types: types.map((type, i) => ({ sub_question: `s${i}?`, type })),
    });
  const jsonl = line(["Core question", "FOLLOW_UP", "background info"]) + "\n\n" + line(["core"]);
  const read = parseDecompositions(jsonl, { file: "d.jsonl" });
  assert.deepEqual(read.map((d) => d.subQuestions.map((s) => s.type)), [
    ["core", "follow-up", "background"],
    ["core"],
  ]);
  const single = JSON.stringify(JSON.parse(line(["Core"])), null, 2);
  assert.deepEqual(parseDecompositions(single, { file: "one.json" }), [{
    question: "Q?",
    subQuestions: [{ text: "s0?", type: "core" }],
  }]);
  const gaps = `[${line(["core", null, "", "background"])}]`;
  assert.match(
    inputError(() => parseDecompositions(gaps, { file: "g.json" })).message,
    /g\.json: \[0\]\.sub_questions_with_types\[1\]\.type: missing/,
  );
  assert.deepEqual(parseDecompositions(gaps, { file: "g.json", untyped: true }), [{
    question: "Q?",
    subQuestions: [{ text: "s0?", type: "core" }, { text: "s3?", type: "background" }],
    untyped: ["s1?", "s2?"],
  }]);
});
