import assert from "node:assert/strict";
import { parsePreferences } from "./preferences.ts";

Deno.test("parsePreferences maps the sign to the winner and keeps ties", () => {
  const text = [
    '{"question": "Q?", "answer_a": "a", "answer_b": "b", "preference": 0.5}',
    '{"question": "Q?", "answer_a": "a", "answer_b": "b", "preference": -1}',
    '{"question": "Q?", "answer_a": "a", "answer_b": "b", "preference": 0}',
  ].join("\n");
  assert.deepEqual(parsePreferences(text, { file: "p.jsonl" }).map((p) => p.human), [
    "A",
    "B",
    "tie",
  ]);
});

Deno.test("parsePreferences names file, line and field of bad input", () => {
  assert.throws(
    () =>
      parsePreferences(
        '{"question": "Q?", "answer_a": "a", "answer_b": "b", "preference": 0}\n{"question": "Q?", "answer_a": "a", "answer_b": "b", "preference": 2}\n',
        { file: "p.jsonl" },
      ),
    /p\.jsonl:2.*preference.*-1 to 1/s,
  );
  assert.throws(
    () =>
      parsePreferences('{"question": "Q?", "answer_a": "a", "preference": 0}\n', {
        file: "p.jsonl",
      }),
    /answer_b/,
  );
});
