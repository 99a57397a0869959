import assert from "node:assert/strict";
import { reportCoverage } from "./report_coverage.ts";
import type { ItemRatings } from "./judged.ts";

// P* = a, b (all passages); A = {q1, q2}. The human report covers q1 and q2;
// the generated one ("t:report:rag") covers q1 only.
const judgments: ItemRatings[] = [
  { topicId: "t", itemId: "a", ratings: [4, 0, 1] },
  { topicId: "t", itemId: "b", ratings: [0, 5, 0] },
  { topicId: "t", itemId: "t:report", ratings: [5, 3, 5] },
  { topicId: "t", itemId: "t:report:rag", ratings: [3, 2, 0] },
  { topicId: "z", itemId: "z:0#0", ratings: [1] },
];
const tokens = (id: string) =>
  ({ a: 100, b: 100, "t:report": 100, "t:report:rag": 50 } as Record<string, number>)[id];

Deno.test("reportCoverage scores reports judged directly", () => {
  const human = reportCoverage({ judgments, tokens });
  // Cov 2/2; Den = ((1/100) / (1/200))^0.5 = sqrt(2) (the report is denser than P*).
  assert.deepEqual(human.rows, [
    { run: "report", topicId: "t", measure: "Cov", value: 1 },
    { run: "report", topicId: "t", measure: "Den", value: Math.SQRT2 },
  ]);
  assert.deepEqual(human.skipped, [{ topicId: "z", reason: 'no ratings for report "z:report"' }]);
  const rag = reportCoverage({ judgments, tokens }, {
    reportId: (t) => `${t}:report:rag`,
    run: "rag",
    w: 1,
  });
  // Cov 1/2; Den(w=1) = (0.5/50) / (1/200) = 2.
  assert.deepEqual(rag.rows.map((r) => [r.measure, r.value]), [["Cov", 0.5], ["Den", 2]]);
  // Without the oracle filter A has 3 sub-questions: the human report covers all 3.
  assert.equal(reportCoverage({ judgments }, { filterByOracle: false }).rows[0].value, 1);
});
