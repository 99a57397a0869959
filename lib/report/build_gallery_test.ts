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
  return await buildGallery(dir, { title: "Gallery <test>" });
}

Deno.test("buildGallery lists every entry with links, inline tables and escaped titles", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const page = await Deno.readTextFile(await gallery(dir));
    assert.ok(page.startsWith("<!doctype html>\n"));
    assert.ok(page.includes("<h1>Gallery &lt;test&gt;</h1>"));
    assert.ok(page.includes('<li><a href="#cov">Coverage</a></li>'));
    assert.ok(page.includes('<img src="figures/per_topic.svg" alt="Per topic">'));
    assert.ok(page.includes('<a href="tables/cov.csv">CSV</a>'));
    assert.ok(page.includes("<figcaption>offline backends: lexical judge</figcaption>"));
    assert.ok(page.includes('class="crux-table crux-sortable"'));
    assert.ok(page.includes("2 figure(s) and 1 table(s)"));
    assert.ok(!/https?:\/\/(?!vega\.github\.io)/.test(page), "no external resources");
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
      const images = await page.$$eval("img", (imgs) =>
        imgs.map((i) => ({
          src: i.getAttribute("src"),
          ok: i.complete && i.naturalWidth > 0,
          width: i.naturalWidth,
        })));
      assert.deepEqual(images.map((i) => [i.src, i.ok]), [
        ["figures/cov.svg", true],
        ["figures/per_topic.svg", true],
      ]);
      assert.ok(images.every((i) => i.width <= 7 * 96), "at most 7 in wide at 96 px/in");
      const order = () =>
        page.$$eval(
          ".crux-sortable tbody tr td:first-child",
          (tds) => tds.map((t) => t.textContent),
        );
      assert.deepEqual(await order(), ["dense", "bm25", "splade"]);
      await page.click(".crux-sortable thead tr:last-child th:nth-child(2)");
      assert.deepEqual(await order(), ["bm25", "splade", "dense"]);
      await page.click(".crux-sortable thead tr:last-child th:nth-child(2)");
      assert.deepEqual(await order(), ["dense", "splade", "bm25"]);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
