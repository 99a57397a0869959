import assert from "node:assert/strict";
import { generationOverview } from "./generation_overview.ts";
import { tinyData } from "./testdata/tiny_data.ts";

Deno.test("generationOverview: every report with its budget (tokens of P*)", () => {
  const r = generationOverview(tinyData(), { preview: 10 });
  assert.equal(r.data.reports.length, 12);
  const c2 = r.data.reports.find((x) => x.topicId === "t2" && x.condition === "c")!;
  assert.deepEqual({ tokens: c2.tokens, budget: c2.budget, contextSize: c2.contextSize }, {
    tokens: 400,
    budget: 200,
    contextSize: 2,
  });
  const row = r.table!.rows.find((x) => x.label === "t2" && x.values.condition === "c")!;
  assert.deepEqual(row.values, {
    condition: "c",
    tokens: 400,
    budget: 200,
    ratio: 2,
    context: 2,
    text: "c report o…",
  });
  // c's t2 report is the only generated one over budget (the human summary is exempt).
  assert.ok(r.table!.notes!.includes("1 generated report(s) exceed the budget."));
  const values = (r.figure!.data as { values: { series?: string; _ref?: boolean }[] }).values;
  // the budget is a black dash per topic, not a bar series of the condition legend
  assert.equal(values.filter((v) => v._ref).length, 2);
  assert.equal(values.filter((v) => v.series === "budget").length, 0);
});
