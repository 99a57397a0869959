import assert from "node:assert/strict";
import { generationOverview } from "./generation_overview.ts";
import { tinyData, tinyExtract } from "./testdata/tiny_data.ts";
import { withStoredMeasures } from "./testdata/stored_measures.ts";

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

Deno.test("generationOverview: each value cell names its stored row; nothing is derived", () => {
  const r = generationOverview(tinyData());
  const index = r.table!.rows.findIndex((x) => x.label === "t2" && x.values.condition === "c");
  const cells = r.cells!.filter((c) => c.index === index);
  assert.deepEqual(
    cells.map((c) => [c.column, c.key?.run, c.key?.measure, c.key?.judge, c.key?.topicId]),
    [
      ["tokens", "c", "Tokens", "lexical", "t2"],
      ["budget", "c", "Budget", "lexical", "t2"],
      ["ratio", "c", "Tokens/Budget", "lexical", "t2"],
      ["context", "c", "ContextPassages", "lexical", "t2"],
    ],
  );
  // 12 reports, 4 values each, every one a stored row.
  assert.equal(r.cells!.filter((c) => c.key).length, 48);
  assert.equal(r.cells!.filter((c) => c.derived || c.reason).length, 0);
});

Deno.test("generationOverview: a failed report, a topic without P* and a report without a token count are blank with their reason", () => {
  const extract = tinyExtract();
  extract.generations = [
    // a's t2 report failed to generate; c's t1 report has no token count.
    ...extract.generations.filter((g) => !(g.run === "a" && g.topicId === "t2"))
      .map((g) => (g.run === "c" && g.topicId === "t1" ? { ...g, tokens: undefined } : g)),
    // t3 has no P*: b's report on it has 30 tokens from one passage.
    {
      run: "b",
      topicId: "t3",
      text: "b report on t3",
      condition: "rag",
      backend: "extractive",
      contextIds: ["t1:0#0"],
      tokens: 30,
    },
  ];
  extract.failedReports = new Map([["a", { condition: "rag", topics: ["t2"] }]]);
  const r = generationOverview(withStoredMeasures(extract));
  const cellsOf = (topic: string, condition: string) => {
    const index = r.table!.rows.findIndex((x) =>
      x.label === topic && x.values.condition === condition
    );
    assert.ok(index >= 0, `${topic} / ${condition} is a row`);
    return Object.fromEntries(
      r.cells!.filter((c) => c.index === index).map((c) => [c.column, c.reason ?? c.key?.measure]),
    );
  };
  const failed = "the report failed to generate; re-run to retry";
  assert.deepEqual(cellsOf("t2", "a"), {
    tokens: failed,
    budget: failed,
    ratio: failed,
    context: failed,
  });
  const noPStar = "the topic has no oracle passages P*";
  assert.deepEqual(cellsOf("t3", "b"), {
    tokens:
      "no Tokens row: the report has no Cov(y) at tau = 3 (a failed or unparsed rating, or no answerable sub-question)",
    budget: noPStar,
    ratio: noPStar,
    context: "ContextPassages",
  });
  const noCount = "the report has no stored token count";
  assert.deepEqual(cellsOf("t1", "c"), {
    tokens: noCount,
    budget: "Budget",
    ratio: noCount,
    context: "ContextPassages",
  });
  const t3 = r.data.reports.find((x) => x.topicId === "t3")!;
  assert.deepEqual([t3.tokens, t3.budget, t3.ratio, t3.contextSize], [null, null, null, 1]);
  const a2 = r.data.reports.find((x) => x.topicId === "t2" && x.condition === "a")!;
  assert.deepEqual([a2.failed, a2.text, a2.tokens, a2.contextSize], [true, "", null, null]);
  assert.ok(
    r.table!.notes!.includes("2 report(s) have no stored length: their Tokens cell is blank."),
  );
  assert.ok(r.table!.notes!.includes("1 report(s) failed to generate: their row has no value."));
});
