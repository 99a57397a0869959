/**
 * Checks of an experiment's saved figures and gallery (see figure_style_test.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openWorkspace } from "@lib/store/mod.ts";
import type { Palette } from "@lib/report/mod.ts";
import { drawnStyles, overlappingTexts, renderedScene } from "./_figure_checks.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

const CONTEXTS: Record<string, string> = {
  "oracle context P*": "Oracle context P*",
  "empty context": "Direct (no context)",
};

/** Figures whose y axis is a score in [0, 1]. */
const SCORES = [
  "context_measures",
  "context_per_topic_coverage",
  "keypoint_length_input",
  "keypoint_length_response",
  "keypoint_scores",
  "keypoint_vs_crux",
  "nugget_agreement",
  "nugget_support",
  "topic_coverage",
];

/** The figure builders both experiments exercise, CRUX and the other methods. */
const BUILT = [
  "context_measures",
  "context_per_topic_coverage",
  "generation_overview",
  "keypoint_length_input",
  "keypoint_length_response",
  "keypoint_scores",
  "keypoint_vs_crux",
  "main_table",
  "method_correlations",
  "method_system",
  "metric_correlations",
  "report_scores",
  "topic_coverage",
];

async function storedPalette(dir: string): Promise<Palette> {
  const ws = await openWorkspace(dir);
  try {
    const rows = await ws.query<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'figure_palette'",
    );
    return JSON.parse(rows[0].value);
  } finally {
    ws.close();
  }
}

export async function checkExperiment(dir: string, extra: string[]) {
  const palette = await storedPalette(dir);
  const style = (n: string) => palette.series[n];
  // A pipeline and its generated run are one condition; references keep theirs.
  assert.deepEqual(style("rag-bm25"), style("bm25"));
  assert.deepEqual(
    [style("direct").color, style("direct").shape],
    ["#7F7F7F", "triangle-down"],
  );
  assert.deepEqual(
    [style("Oracle context P*").color, style("Oracle context P*").shape],
    ["#D55E00", "diamond"],
  );
  assert.deepEqual(style("oracle-context"), style("Oracle context P*"));
  const figures = [...Deno.readDirSync(join(dir, "figures"))]
    .filter((f) => f.name.endsWith(".vl.json")).map((f) => f.name.slice(0, -8)).sort();
  for (const name of [...BUILT, ...extra]) assert.ok(figures.includes(name), `${dir}: ${name}`);
  const seen = new Map<string, string>();
  for (const name of figures) {
    const spec = JSON.parse(await Deno.readTextFile(join(dir, "figures", `${name}.vl.json`)));
    for (const [series, s] of drawnStyles(spec)) {
      // Contexts of a run at further cutoffs take the run's colour lightened.
      // Evaluated contexts: P* as the oracle context, the empty one as direct.
      const variant = series.match(/^(.*) top-[^ ]+$/)?.[1];
      // Human labels are black diamonds.
      const want = style(series) ??
        (variant !== undefined
          ? style(variant)
          : series.startsWith("human")
          ? { color: "#000000", shape: "diamond", kind: "human" as const }
          : style(CONTEXTS[series] ?? series));
      assert.ok(want, `${name}: series "${series}" is not in the experiment's palette`);
      if (!style(series) && s.color !== want.color) continue; // a lightened cutoff variant
      assert.equal(s.color, want.color, `${name}: colour of ${series}`);
      if (s.shape) assert.equal(s.shape, want.shape, `${name}: shape of ${series}`);
      const key = `${s.color} ${s.shape ?? want.shape}`;
      assert.equal(seen.get(series) ?? key, key, `${series} differs between figures`);
      seen.set(series, key);
    }
    const { texts, yDomains } = await renderedScene(spec);
    assert.deepEqual(overlappingTexts(texts), [], `${name}: overlapping text`);
    for (const { domain } of yDomains) {
      assert.ok(domain[0] >= 0, `${name}: y axis starts at ${domain[0]}`);
      if (SCORES.includes(name)) assert.ok(domain[1] <= 1, `${name}: y axis ends at ${domain[1]}`);
    }
  }
  // Only conditions with input documents are bucketed by input length.
  const input = JSON.parse(
    await Deno.readTextFile(join(dir, "figures", "keypoint_length_input.vl.json")),
  );
  const bucketed = new Set(input.data.values.map((v: { run: string }) => v.run));
  assert.ok(!bucketed.has("direct") && !bucketed.has("oracle-result"), [...bucketed].join());
  return figures;
}

export async function checkGallery(dir: string) {
  const pngs = [...Deno.readDirSync(join(dir, "figures"))].filter((f) => f.name.endsWith(".png"));
  const htmls = [...Deno.readDirSync(join(dir, "tables"))].filter((f) => f.name.endsWith(".html"));
  const page = await Deno.readTextFile(join(dir, "index.html"));
  assert.match(page, new RegExp(`${pngs.length} figure\\(s\\) and ${htmls.length} table\\(s\\)`));
  if (!hasChromium) return;
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (e) => errors.push(String(e)));
    await tab.goto(`file://${join(dir, "index.html")}`, { waitUntil: "load" });
    const images = await tab.$$eval(
      "figure img",
      (imgs) =>
        imgs.map((i) => ({ src: i.getAttribute("src"), ok: i.complete && i.naturalWidth > 0 })),
    );
    assert.equal(images.length, pngs.length, "one image per PNG on disk");
    assert.deepEqual(images.filter((i) => !i.ok), [], "every image opens");
    assert.deepEqual(
      images.map((i) => i.src!.replace(/^figures\/|\.svg$/g, "")).sort(),
      pngs.map((p) => p.name.slice(0, -4)).sort(),
    );
    assert.equal(await tab.$$eval(".crux-table", (t) => t.length), htmls.length);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
}
