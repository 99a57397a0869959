import assert from "node:assert/strict";
import { tableMarkdown } from "@lib/report/mod.ts";
import { mainTable } from "./main_table.ts";
import { tinyData as tiny } from "./testdata/tiny_data.ts";
import { withStatistics } from "./testdata/with_statistics.ts";

/** The tiny data with the statistics the statistics stage stores for its main table. */
const tinyData = () => withStatistics(tiny(), (d) => [mainTable(d)]);

const close = (a: number | undefined, b: number, what: string) =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);

Deno.test("mainTable: hand-checked means of a 3-pipeline comparison", () => {
  const r = mainTable(tinyData());
  const m = (c: string, k: string) =>
    r.data.means.find((x) => x.condition === c && x.measure === k)?.value;
  // Cov(Z): a covers A on both topics; b misses q1 of t2; c covers nothing on t1.
  close(m("a", "covZ"), 1, "a covZ");
  close(m("b", "covZ"), 0.75, "b covZ");
  close(m("c", "covZ"), 0.5, "c covZ");
  // alpha-nDCG@|P*| (alpha 0.5): ideal DCG = 2 + 0.5/log2(3) on both topics.
  const ideal = 2 + 0.5 / Math.log2(3);
  close(m("a", "andcg"), ((1 + 1 / Math.log2(3)) / ideal + 1) / 2, "a andcg");
  close(m("b", "andcg"), (2 / ideal + 1 / ideal) / 2, "b andcg");
  // Den(Z): b's t1 context has 150 tokens vs 200 for P*, so sqrt(200/150); its t2 context covers half.
  close(m("b", "denZ"), (Math.sqrt(200 / 150) + Math.sqrt(0.5)) / 2, "b denZ");
  // Reports: c's t2 report covers A with 400 tokens -> Den sqrt(200/400).
  close(m("c", "covY"), 0.5, "c covY");
  close(m("c", "denY"), Math.sqrt(0.5) / 2, "c denY");
  // References: the human summary (oracle result) and P* as context.
  close(m("oracle-result", "covY"), 1, "oracle-result covY");
  close(m("oracle-result", "denY"), (Math.sqrt(0.5) + 1) / 2, "oracle-result denY");
  close(m("oracle-context", "covZ"), 1, "oracle-context covZ");
  close(m("oracle-context", "denZ"), 1, "oracle-context denZ");
  assert.equal(m("direct", "covZ"), undefined);
  close(m("direct", "covY"), 0.25, "direct covY");
});

Deno.test("mainTable: Kendall tau between context and report measures across pipelines", () => {
  const r = mainTable(tinyData());
  const taus = Object.fromEntries(r.data.taus.map((t) => [`${t.context}/${t.report}`, t.value]));
  // covZ [1, .75, .5] vs covY [.75, .25, .5]: pairs ab, ac concordant, bc discordant -> 1/3.
  close(taus["covZ/covY"], 1 / 3, "covZ/covY");
  close(taus["andcg/covY"], 1 / 3, "andcg/covY");
  close(taus["denZ/denY"], 1, "denZ/denY");
  assert.ok(r.data.taus.every((t) => t.pipelines === 3));
});

Deno.test("mainTable: best bold, worst underlined, references and tau row unmarked, offline label", () => {
  const md = tableMarkdown(mainTable(tinyData()).table!);
  const lines = md.split("\n");
  const row = (label: string) => lines.find((l) => l.startsWith(`| ${label} |`))!;
  assert.equal(row("a"), "| a | **1.000** | **0.852** | **0.750** | **1.000** | **1.000** |");
  assert.equal(row("b"), "| b | 0.750 | 0.648 | <u>0.250</u> | 0.931 | 0.500 |");
  assert.equal(
    row("c"),
    "| c | <u>0.500</u> | <u>0.500</u> | 0.500 | <u>0.500</u> | <u>0.354</u> |",
  );
  assert.equal(
    row("Oracle context P\\*"),
    "| Oracle context P\\* | 1.000 | 0.704 | 1.000 | 1.000 | 1.000 |",
  );
  assert.equal(
    row("Kendall τ (context vs report)"),
    "| Kendall τ (context vs report) | n/a (n=3) | n/a (n=3) | – | n/a (n=3) | – |",
  );
  // over three pipelines the taus (0.333, 0.333, 1.000) are withheld, never bold
  assert.ok(md.includes("Note: n/a (n=3): Kendall τ is not reported over fewer than 4 pipelines"));
  assert.match(lines[0], /\(offline backends\)$/);
  assert.ok(md.includes("Note: offline backends: lexical judge, extractive generator"));
});

Deno.test("mainTable: without report ratings the report columns are empty and tau undefined", () => {
  const data = { ...tinyData(), reportRatings: new Map(), reportJudge: undefined };
  const r = mainTable(data);
  assert.equal(r.data.means.filter((m) => m.measure === "covY").length, 0);
  assert.ok(r.data.taus.every((t) => Number.isNaN(t.value) && t.pipelines === 0));
  assert.equal(r.table!.rows[0].values["tiny:covY"], null);
});

Deno.test("mainTable: the figure plots Cov(Z) against Cov(y) of every condition with both", () => {
  const fig = mainTable(tinyData()).figure!;
  const values = (fig.data as { values: Record<string, unknown>[] }).values;
  assert.deepEqual(values.map((v) => [v.pipeline, v.contextCov, v.reportCov]), [
    ["a", 1, 0.75],
    ["b", 0.75, 0.25],
    ["c", 0.5, 0.5],
    ["Oracle context P*", 1, 1],
  ]);
  const title = fig.title as { text: string; subtitle: string[] };
  assert.match(title.text, /\(offline\s+backends\)$/);
  assert.match(title.subtitle.join(" "), /Kendall τ = n\/a \(n=3\) across 3 pipelines/);
  // The line would be fitted on the pipelines only, not the references: three points
  // are too few to tell whether one carries it, so none is drawn, and the subtitle says so.
  const marks = (fig.layer as { mark: { type: string } }[]).map((l) => l.mark.type);
  assert.ok(!marks.includes("line"), marks.join(", "));
  assert.match(title.subtitle.join(" "), /no fit line: 3 points are too few to tell/);
});

Deno.test("mainTable and generationOverview flag generations that are not reports", async () => {
  const { generationOverview } = await import("./generation_overview.ts");
  const data = tinyData();
  // Pipeline c answered with a bare number on t1 and nothing on t2.
  data.generations = data.generations.map((g) =>
    g.run === "c"
      ? { ...g, text: g.topicId === "t1" ? "4" : "", tokens: g.topicId === "t1" ? 1 : 0 }
      : g
  );
  const note = /^c: 1 empty, 1 only a number of 2 reports; such texts are not reports/;
  assert.ok(mainTable(data).table!.notes!.some((n) => note.test(n)), "main table note");
  assert.ok(generationOverview(data).table!.notes!.some((n) => note.test(n)), "overview note");
  // Untouched, only c's 10-token report on t1 (budget 200 tokens) is near-empty.
  assert.deepEqual(
    mainTable(tinyData()).table!.notes!.filter((n) => /not reports/.test(n)).map((n) =>
      n.split(";")[0]
    ),
    ["c: 1 near-empty of 2 reports"],
  );
});

Deno.test("mainTable: optional bootstrap CI and paired-test columns against a baseline", async () => {
  const { bootstrapCi, pairedTTest } = await import("@lib/metrics/mod.ts");
  const opts = { ci: true, baseline: "c" };
  const r = mainTable(withStatistics(tiny(), (d) => [mainTable(d, opts)]), opts);
  const t = r.table!;
  const labels = t.columns.map((c) => c.label);
  assert.deepEqual(labels.slice(-2), ["Cov(y) 95% CI", "p vs c"]);
  const covY = (cond: string) =>
    r.data.perTopic.filter((x) => x.condition === cond && x.measure === "covY")
      .map((x) => x.value);
  const ci = bootstrapCi(covY("a"));
  const rowA = t.rows.find((row) => row.label === "a")!;
  const [ciKey, pKey] = t.columns.slice(-2).map((c) => c.key);
  assert.equal(rowA.values[ciKey], `[${ci.lower.toFixed(3)}, ${ci.upper.toFixed(3)}]`);
  const p = pairedTTest(covY("a"), covY("c")).p;
  assert.equal(rowA.values[pKey], p < 0.05 ? `${p.toFixed(3)} †` : p);
  assert.equal(t.rows.find((row) => row.label === "c")!.values[pKey], undefined);
  assert.ok(t.notes!.some((n) => n.startsWith("p vs c: two-sided paired t-test of Cov(y)")));
  // Without the stored statistics the columns are blank: never computed by the table.
  const bare = mainTable(tiny(), opts).table!.rows.find((row) => row.label === "a")!;
  assert.deepEqual([bare.values[ciKey], bare.values[pKey]], [null, null]);
  assert.ok(t.notes!.some((n) => n.startsWith("95% CI: percentile bootstrap")));
});
