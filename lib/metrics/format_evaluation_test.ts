import assert from "node:assert/strict";
import { evaluate } from "./evaluate.ts";
import { formatEvaluation } from "./format_evaluation.ts";

const rows = [
  { run: "r,1", topicId: "a", docId: "x", rank: 1, score: 1 },
  { run: "r,1", topicId: "b", docId: "y", rank: 1, score: 1 },
];
const judgments = [
  { topicId: "a", itemId: "x", ratings: [4, 0] },
  { topicId: "b", itemId: "y", ratings: [1, 1] },
];

Deno.test("formatEvaluation renders table, csv and json", () => {
  // Topic b has |A| = 0, so Cov@1 averages topic a only; P@1 averages both.
  const result = evaluate(rows, ["Cov@1", "P@1"], { judgments });
  assert.equal(
    formatEvaluation(result, "table", { perQuery: true }),
    [
      "run   Cov@1     P@1  topics",
      "r,1  1.0000  0.5000       2",
      "",
      "run  topic  measure   value",
      "r,1      a    Cov@1  1.0000",
      "r,1      a      P@1  1.0000",
      "r,1      b      P@1  0.0000",
      "",
    ].join("\n"),
  );
  assert.equal(
    formatEvaluation(result, "csv"),
    'run,topic,measure,value\n"r,1",all,Cov@1,1\n"r,1",all,P@1,0.5\n',
  );
  assert.equal(
    formatEvaluation(result, "json"),
    '{"aggregate":{"Cov@1":1,"P@1":0.5},"topics":2}\n',
  );
});

Deno.test("formatEvaluation prints null for measures with no averaged topic", () => {
  const result = evaluate(rows.slice(1), ["Cov@1"], { judgments });
  assert.equal(formatEvaluation(result, "json"), '{"aggregate":{"Cov@1":null},"topics":1}\n');
  assert.match(formatEvaluation(result, "table"), /r,1\s+-\s+1/);
});
