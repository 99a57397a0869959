import assert from "node:assert/strict";
import { tableMarkdown } from "@lib/report/mod.ts";
import { reportScores } from "./report_scores.ts";
import { tinyData } from "./testdata/tiny_data.ts";

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
