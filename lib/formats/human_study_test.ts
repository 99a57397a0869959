import assert from "node:assert/strict";
import { parseHumanStudy } from "./human_study.ts";

Deno.test("parseHumanStudy: records with their placeholder (NA) questions marked", () => {
  const text = [
    JSON.stringify({
      qid: 3,
      topic: "Report on the storm.",
      questions: ["Who?", "NA", "When?", "na"],
      docids: [1, "d2"],
    }),
    JSON.stringify({ qid: "4", topic: "Floods", report: "r" }),
  ].join("\n");
  assert.deepEqual(parseHumanStudy(text, { file: "study.jsonl" }), [
    {
      qid: "3",
      topic: "Report on the storm.",
      questions: ["Who?", "NA", "When?", "na"],
      naQuestions: [1, 3],
      docids: ["1", "d2"],
    },
    { qid: "4", topic: "Floods", questions: [], naQuestions: [], docids: [], report: "r" },
  ]);
  assert.throws(() => parseHumanStudy('{"qid": 1}\n', { file: "study.jsonl" }), /study\.jsonl:1/);
});
