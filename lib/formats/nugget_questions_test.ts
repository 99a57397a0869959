import assert from "node:assert/strict";
import { inputError } from "./_testing.ts";
import { parseNuggetQuestions } from "./nugget_questions.ts";

Deno.test("nugget questions accept string or list answers and merge repeated questions", () => {
  const text = JSON.stringify({
    id: 301,
    nuggets: [["Who built it?", "Ann"], ["When?", ["1990", "early 1990s"]], ["Who built it?", [
      "Bo",
      "Ann",
    ]]],
  });
  assert.deepEqual(parseNuggetQuestions(text, { file: "n.jsonl" }), [{
    topicId: "301",
    nuggets: [
      { question: "Who built it?", answers: ["Ann", "Bo"] },
      { question: "When?", answers: ["1990", "early 1990s"] },
    ],
  }]);
});

Deno.test("nugget questions report malformed pairs", () => {
  const e = inputError(() =>
    parseNuggetQuestions('{"id": "t", "nuggets": [["q"]]}\n{"id": "u", "nuggets": [["q", 5]]}', {
      file: "n",
    })
  );
  assert.deepEqual(e.message.split("\n"), [
    'n:1: nuggets[0]: expected [question, answer or list of answers], found ["q"]',
    "n:2: nuggets[0][1]: expected an answer string or a list of them, found 5",
  ]);
});
