/**
 * The figures of one experiment share one style: every colour scale has the
 * same domain and range, legends list only what is drawn, sizes stay within
 * a double-column page, topics come in natural order.
 */
import assert from "node:assert/strict";
import { seriesPalette, type VegaLiteSpec } from "@lib/report/mod.ts";
import { conditionPalette } from "./_palette.ts";
import { generationOverview } from "./generation_overview.ts";
import { mainTable } from "./main_table.ts";
import { reportScores } from "./report_scores.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import { topicCoverage } from "./topic_coverage.ts";
import { tinyData } from "./testdata/tiny_data.ts";

type Enc = Record<
  string,
  { field?: string; scale?: { domain: string[]; range: string[] } } & {
    legend?: { values: string[] };
  }
>;

/** Every colour encoding of a spec (top level, layers, facet and concat children). */
function colorEncodings(spec: Record<string, unknown>): Enc[string][] {
  const out: Enc[string][] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    const n = node as Record<string, unknown>;
    const enc = n.encoding as Enc | undefined;
    if (enc?.color?.scale) out.push(enc.color);
    for (const k of ["layer", "vconcat", "hconcat", "concat"]) {
      for (const child of (n[k] as unknown[] | undefined) ?? []) walk(child);
    }
    walk(n.spec);
  };
  walk(spec);
  return out;
}

function figures(): [string, VegaLiteSpec][] {
  const data = tinyData();
  return [
    ["main_table", mainTable(data).figure!],
    ["report_scores", reportScores(data).figure!],
    ["topic_coverage", topicCoverage(data).figure!],
    ["generation_overview", generationOverview(data).figure!],
  ];
}

Deno.test("one colour scale (domain and range) across every figure of an experiment", () => {
  const scales = figures().flatMap(([name, spec]) =>
    colorEncodings(spec).map((c) => [name, JSON.stringify(c.scale)])
  );
  assert.ok(scales.length >= 4);
  const first = scales[0][1];
  for (const [name, scale] of scales) assert.equal(scale, first, `${name} colour scale`);
  const { domain, range } = JSON.parse(first);
  assert.deepEqual(domain, [
    "a",
    "b",
    "c",
    "Direct (no context)",
    "Oracle context P*",
    "Oracle result",
  ]);
  assert.deepEqual(range, ["#0072B2", "#E69F00", "#009E73", "#7F7F7F", "#D55E00", "#332288"]);
});

Deno.test("legends list exactly the series drawn", () => {
  for (const [name, spec] of figures()) {
    const values = (spec.data as { values: Record<string, unknown>[] }).values;
    for (const c of colorEncodings(spec)) {
      const drawn = new Set(values.filter((v) => !v._ref).map((v) => String(v[c.field!])));
      assert.deepEqual(new Set(c.legend!.values), drawn, `${name} legend`);
    }
  }
});

Deno.test("figure sizes stay within a double-column page; topics in natural order", () => {
  for (const [name, spec] of figures()) {
    const widths: number[] = [];
    const walk = (n: Record<string, unknown>) => {
      if (typeof n.width === "number") widths.push(n.width);
      for (const k of ["vconcat", "layer"]) {
        for (const c of (n[k] as Record<string, unknown>[] | undefined) ?? []) walk(c);
      }
      if (n.spec) walk(n.spec as Record<string, unknown>);
    };
    walk(spec);
    assert.ok(widths.length > 0 && widths.every((w) => w <= 504 - 100), `${name}: ${widths}`);
  }
  const topics = topicCoverage(tinyData()).figure!;
  assert.deepEqual((topics.encoding as { x: { sort: string[] } }).x.sort, ["t1", "t2"]);
});

Deno.test("a stored palette wins: colours follow the experiment, not the figure", () => {
  const data = tinyData();
  data.palette = seriesPalette([{ name: "c", kind: "pipeline" }, { name: "a", kind: "pipeline" }]);
  const p = conditionPalette(data, resolveConditions(data));
  assert.equal(p.series["c"].color, "#0072B2");
  assert.equal(p.series["a"].color, "#E69F00");
  const scale = colorEncodings(reportScores(data).figure!)[0].scale!;
  assert.deepEqual(scale.domain.slice(0, 3), ["c", "a", "b"]);
});
