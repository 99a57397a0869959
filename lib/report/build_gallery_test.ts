import assert from "node:assert/strict";
import { join } from "node:path";
import { barChart } from "./bar_chart.ts";
import { buildGallery } from "./build_gallery.ts";
import { recordGalleryEntry } from "./record_gallery_entry.ts";
import { saveFigure } from "./save_figure.ts";
import { saveTable } from "./save_table.ts";
import { topicChart } from "./topic_chart.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

/** A gallery with two figures (one also with a table) in a temp folder. */
async function gallery(dir: string): Promise<string> {
  const bars = barChart(
    [{ run: "bm25", measure: "Cov", value: 0.5 }, { run: "dense", measure: "Cov", value: 0.7 }],
    { title: "Coverage", note: "offline backends: lexical judge" },
  );
  const topics = topicChart(
    ["t10", "t2", "t1"].map((topicId, i) => ({ topicId, run: "bm25", value: i / 3 })),
    { title: "Per topic" },
  );
  const cov = await saveFigure(bars, join(dir, "figures", "cov"));
  const per = await saveFigure(topics, join(dir, "figures", "per_topic"));
  const table = await saveTable({
    caption: "Coverage",
    columns: [{ key: "cov", label: "Cov", direction: "higher" }],
    rows: [
      { label: "dense", values: { cov: 0.7 } },
      { label: "bm25", values: { cov: 0.5 } },
      { label: "splade", values: { cov: 0.65 } },
    ],
    notes: ["offline backends: lexical judge"],
  }, join(dir, "tables", "cov"));
  const rel = (p: string) => p.slice(dir.length + 1);
  await recordGalleryEntry(dir, {
    name: "cov",
    title: "Coverage",
    caption: "Coverage",
    subtitle: ["offline backends: lexical judge"],
    notes: ["offline backends: lexical judge"],
    figure: { svg: rel(cov.svg), png: rel(cov.png), spec: rel(cov.spec) },
    table: { csv: rel(table.csv), md: rel(table.md), tex: rel(table.tex), html: rel(table.html) },
  });
  await recordGalleryEntry(dir, {
    name: "per_topic",
    title: "Per topic",
    subtitle: [],
    notes: [],
    figure: { svg: rel(per.svg), png: rel(per.png), spec: rel(per.spec) },
  });
  // Saved from a notebook: files only, not recorded in analyses.json.
  await saveFigure(
    barChart([{ run: "bm25", measure: "P", value: 0.3 }], { title: "Ratings of topic t1" }),
    join(dir, "figures", "ratings_t1"),
  );
  await saveTable({
    caption: "Dataset statistics",
    columns: [{ key: "n", label: "Passages", decimals: 0 }],
    rows: Array.from({ length: 30 }, (_, i) => ({ label: `t${i + 1}`, values: { n: i } })),
  }, join(dir, "tables", "dataset_statistics"));
  return await buildGallery(dir, { title: "Gallery <test>" });
}

Deno.test("buildGallery lists every entry with links, inline tables and escaped titles", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const page = await Deno.readTextFile(await gallery(dir));
    assert.ok(page.startsWith("<!doctype html>\n"));
    assert.ok(page.includes("<h1>Gallery &lt;test&gt;</h1>"));
    assert.ok(page.includes('<li><a href="#cov">Coverage</a></li>'));
    assert.ok(page.includes(
      '<img src="figures/per_topic.svg" data-full="figures/per_topic.png" alt="Per topic">',
    ));
    assert.ok(page.includes('<a href="tables/cov.csv">CSV</a>'));
    assert.ok(page.includes("<figcaption>offline backends: lexical judge</figcaption>"));
    assert.ok(page.includes('class="crux-table crux-sortable"'));
    // The notebook's files are listed, titled from their spec and caption, in their groups.
    assert.ok(page.includes("3 figure(s) and 2 table(s)"));
    assert.ok(page.includes("<h3>Ratings of topic t1</h3>"));
    assert.ok(
      page.includes('<h2 class="group" id="group-dataset">Dataset (1 figure, 1 table)</h2>'),
    );
    assert.ok(page.indexOf("group-dataset") < page.indexOf('<section id="cov">'));
    assert.ok(page.includes("<summary>Table: 30 rows (click to show)</summary>"));
    assert.ok(!/https?:\/\/(?!vega\.github\.io)/.test(page), "no external resources");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildGallery: a listed cells file adds nothing to the page, and a version 1 manifest gives the same page", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const before = await Deno.readTextFile(await gallery(dir));
    const path = join(dir, "analyses.json");
    const manifest = JSON.parse(await Deno.readTextFile(path));
    assert.equal(manifest.version, 2);
    const cov = manifest.analyses.find((a: { name: string }) => a.name === "cov");
    await Deno.writeTextFile(join(dir, "tables", "cov.cells.jsonl"), "{}\n");
    await recordGalleryEntry(dir, { ...cov, cells: "tables/cov.cells.jsonl" });
    const listed = await Deno.readTextFile(await buildGallery(dir, { title: "Gallery <test>" }));
    assert.equal(listed, before);
    assert.ok(!listed.includes("cells.jsonl"));
    // As the workbench wrote the manifest before it listed cells files.
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        version: 1,
        analyses: manifest.analyses.map(({ cells: _, ...a }: { cells?: string }) => a),
      }),
    );
    assert.equal(
      await Deno.readTextFile(await buildGallery(dir, { title: "Gallery <test>" })),
      before,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildGallery without saved analyses says what to run", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(() => buildGallery(dir), {
      message:
        `${dir}/analyses.json: no saved analyses; run the analyses (crux run, crux demo) first`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

if (!hasChromium) {
  console.log(
    `Skipping the headless Chromium gallery test: ${CHROMIUM} is missing (apt-get install chromium)`,
  );
}

Deno.test({
  name: "buildGallery: the page opens in headless Chromium, every figure drawn, no console error",
  ignore: !hasChromium,
  async fn() {
    const { chromium } = await import("playwright-core");
    const dir = await Deno.makeTempDir();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const path = await gallery(dir);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`file://${path}`, { waitUntil: "load" });
      const images = await page.$$eval("figure img", (imgs) =>
        imgs.map((i) => ({
          src: i.getAttribute("src"),
          ok: i.complete && i.naturalWidth > 0,
          width: i.naturalWidth,
          shown: i.getBoundingClientRect().width,
        })));
      // One image per figure file on disk, each loaded and shown at its own size.
      const pngs = [...Deno.readDirSync(join(dir, "figures"))].filter((f) =>
        f.name.endsWith(".png")
      );
      assert.equal(images.length, pngs.length);
      assert.deepEqual(images.map((i) => [i.src, i.ok]), [
        ["figures/ratings_t1.svg", true],
        ["figures/cov.svg", true],
        ["figures/per_topic.svg", true],
      ]);
      assert.ok(images.every((i) => i.width <= 7 * 96), "at most 7 in wide at 96 px/in");
      assert.ok(images.every((i) => Math.abs(i.shown - i.width) < 1), "not scaled down");
      // A click shows the 300 dpi PNG across the window; another click closes it.
      await page.click('img[src="figures/cov.svg"]');
      const zoom = await page.$eval("#zoom img", (i) => ({
        src: i.getAttribute("src"),
        hidden: i.parentElement!.hasAttribute("hidden"),
      }));
      assert.deepEqual(zoom, { src: "figures/cov.png", hidden: false });
      await page.waitForFunction('document.querySelector("#zoom img").naturalWidth > 0');
      await page.click("#zoom");
      assert.equal(await page.$eval("#zoom", (z) => z.hasAttribute("hidden")), true);
      // The 30-row table is collapsed until its summary is clicked.
      const visible = () => page.isVisible("details .crux-table");
      assert.equal(await visible(), false);
      await page.click("details summary");
      assert.equal(await visible(), true);
      const order = () =>
        page.$$eval(
          "#cov .crux-sortable tbody tr td:first-child",
          (tds) => tds.map((t) => t.textContent),
        );
      assert.deepEqual(await order(), ["dense", "bm25", "splade"]);
      await page.click("#cov .crux-sortable thead tr:last-child th:nth-child(2)");
      assert.deepEqual(await order(), ["bm25", "splade", "dense"]);
      await page.click("#cov .crux-sortable thead tr:last-child th:nth-child(2)");
      assert.deepEqual(await order(), ["dense", "splade", "bm25"]);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("galleryGroup: names go to their stage or method", async () => {
  const { galleryGroup } = await import("./_gallery_files.ts");
  assert.deepEqual(
    [
      "dataset_statistics",
      "ratings_t1",
      "context_measures",
      "context_size_table",
      "main_table",
      "keypoint_vs_crux",
      "subq_win_rates",
      "method_system",
      "zzz",
    ].map(galleryGroup),
    [
      "Dataset",
      "Dataset",
      "Retrieval and contexts",
      "CRUX: report coverage",
      "CRUX: report coverage",
      "Key points",
      "Typed sub-questions",
      "Methods side by side",
      "Other",
    ],
  );
});
