import assert from "node:assert/strict";
import { tableMarkdown } from "@lib/report/mod.ts";
import { reportScores } from "./report_scores.ts";
import { tinyData, tinyExtract } from "./testdata/tiny_data.ts";
import { withStoredMeasures } from "./testdata/stored_measures.ts";

Deno.test("reportScores: mean Cov(y), Den(y) and tokens per condition", () => {
  const r = reportScores(tinyData());
  const s = Object.fromEntries(r.data.scores.map((x) => [x.condition, x]));
  assert.equal(s.a.coverage, 0.75);
  assert.equal(s.a.density, 1);
  assert.equal(s.a.tokens, 150);
  assert.equal(s.b.coverage, 0.25);
  assert.equal(s["Direct (no context)"].coverage, 0.25);
  assert.equal(s["Oracle result"].tokens, 300);
  assert.equal(s["Oracle result"].kind, "oracle-result");
  const md = tableMarkdown(r.table!);
  assert.ok(md.includes("| a | **0.750** | **1.000** | 150 | 2 |"), md);
  assert.ok(md.includes("| b | <u>0.250</u> | 0.500 | 75 | 2 |"), md);
  assert.ok(md.includes("| Oracle result | 1.000 | 0.854 | 300 | 2 |"), md);
});

Deno.test("reportScores: a report without a stored token count leaves Tokens blank with its reason, never 0", () => {
  const extract = tinyExtract();
  // Run b's report of t2 has no token count: b's mean length over {t1, t2} is not measured.
  extract.generations = extract.generations.map((g) =>
    g.run === "b" && g.topicId === "t2" ? { ...g, tokens: undefined } : g
  );
  const r = reportScores(withStoredMeasures(extract));
  const s = Object.fromEntries(r.data.scores.map((x) => [x.condition, x]));
  assert.equal(s.a.tokens, 150);
  assert.ok(Number.isNaN(s.b.tokens));
  assert.equal(s.b.coverage, 0.25);
  const md = tableMarkdown(r.table!);
  // Blank, where the view used to show (100 + 0) / 2 = 50.
  assert.match(md, /\| b \| <u>0\.250<\/u> \| [^|]+ \| – \| 2 \|/);
  const cell = r.cells!.find((c) => c.row === "b" && c.column === "tokens")!;
  assert.match(cell.reason ?? "", /no mean report length stored beside Cov/);
  // Run a's cell names the stored mean it shows.
  assert.deepEqual(r.cells!.find((c) => c.row === "a" && c.column === "tokens")!.key, {
    run: "a",
    source: "report",
    judge: r.cells!.find((c) => c.row === "a" && c.column === "cov")!.key!.judge,
    measure: "Tokens",
    topicId: "all",
  });
});

Deno.test("reportScores: Topics shows the stored Cov(y) mean's topic count, blank when it states none", () => {
  const data = tinyData();
  const r = reportScores(data);
  const a = r.cells!.find((c) => c.row === "a" && c.column === "topics")!;
  const cov = r.cells!.find((c) => c.row === "a" && c.column === "cov")!;
  // The cell names the stored Cov(y) mean and shows its `topics` (t1 and t2).
  assert.deepEqual([a.key, a.shows, a.derived], [cov.key, "topics", undefined]);
  assert.equal(r.data.scores.find((s) => s.condition === "a")!.topics, 2);
  // A stored mean that states no topic count: blank, not a count of the per-topic rows.
  const measures = data.measures!.map((m) =>
    m.run === cov.key!.run && m.measure === cov.key!.measure && m.topicId === "all" &&
      m.judge === cov.key!.judge && m.source === cov.key!.source
      ? { ...m, topics: null }
      : m
  );
  const again = reportScores({ ...data, measures });
  assert.ok(Number.isNaN(again.data.scores.find((s) => s.condition === "a")!.topics));
  assert.equal(again.data.scores.find((s) => s.condition === "b")!.topics, 2);
  const blank = again.cells!.find((c) => c.row === "a" && c.column === "topics")!;
  assert.deepEqual([blank.key, blank.reason], [
    undefined,
    `the stored ${cov.key!.measure} mean states no topic count`,
  ]);
  assert.match(
    tableMarkdown(again.table!),
    /\| a \| \*\*0\.750\*\* \| \*\*1\.000\*\* \| 150 \| – \|/,
  );
});
