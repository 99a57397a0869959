/**
 * The explorer and the annotation pages on a 50-topic release-format
 * experiment, in headless Chromium: every page kind loads, and how long each
 * took is printed (not asserted: timings depend on the machine). With
 * `CRUX_SCREENSHOTS=DIR` the pages are also saved as PNG files (the README's
 * screenshots are made this way).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";
import { createAnnotationTask, serveWorkspace } from "@lib/serve/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { writeReleaseFixture } from "../support/release_fixture.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();
const shots = Deno.env.get("CRUX_SCREENSHOTS");

Deno.test({
  name:
    "explorer and annotation pages of a 50-topic release experiment load in Chromium (timings printed)",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-serve-50-" });
    try {
      const file = await writeReleaseFixture(dir, 50);
      const raw = JSON.parse(await Deno.readTextFile(file));
      // CRUX and nuggets only.
      for (const m of METHOD_REGISTRY) if (m.section && m.key !== "nuggets") delete raw[m.key];
      raw.workspace = join(dir, "ws");
      await Deno.writeTextFile(file, JSON.stringify(raw));
      const config = await loadExperimentConfig(file);
      await runCruxExperiment(config, {});
      const ws = await openWorkspace(config.workspace);
      const [{ topicId }] = await ws.query<{ topicId: string }>(
        `SELECT topic_id AS "topicId" FROM generations WHERE run = 'rag-bm25' ORDER BY topic_id LIMIT 1`,
      );
      const { tokens } = await createAnnotationTask(ws, {
        task: "answerability",
        annotators: ["ann", "bob"],
        perCondition: 2,
      });
      ws.close();
      const { chromium } = await import("playwright-core");
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
      const timings: string[] = [];
      try {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        const visit = async (base: string, path: string, shot?: string) => {
          const start = performance.now();
          const res = await page.goto(base + path, { waitUntil: "load" });
          const ms = performance.now() - start;
          assert.equal(res?.status(), 200, path);
          timings.push(`${path.replace(/\?.*/, "").replace(/\/[^/]*$/, "/…")} ${ms.toFixed(0)} ms`);
          // The page fits the window: wide tables scroll inside their own box.
          const width = await page.evaluate(() =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
              .document.documentElement.scrollWidth
          );
          assert.ok(width <= 1200, `${path}: ${width} px wide in a 1200 px window`);
          if (shots && shot) await page.screenshot({ path: join(shots, `${shot}.png`) });
        };
        const t = encodeURIComponent(topicId);
        let server = await serveWorkspace(config.workspace, { port: 0 });
        try {
          await visit(server.url, "/", "explorer_experiment");
          await visit(server.url, `/topic/${t}`, "explorer_topic");
          await visit(server.url, `/report/rag-bm25/${t}`, "explorer_report");
          await visit(server.url, `/compare/${t}?a=direct&b=rag-bm25`, "explorer_compare");
          // Pages again, warm.
          await visit(server.url, `/topic/${t}`);
          await visit(server.url, `/report/rag-bm25/${t}`);
        } finally {
          await server.shutdown();
        }
        server = await serveWorkspace(config.workspace, { port: 0, annotate: true });
        try {
          const token = tokens.get("ann")!;
          await visit(server.url, `/annotate/${token}`, "annotate_queue");
          const item = await page.$eval("a[href*='/annotate/']", (a) => a.getAttribute("href"));
          if (item && !item.endsWith(`/annotate/${token}`)) {
            await visit(server.url, item, "annotate_item");
          }
        } finally {
          await server.shutdown();
        }
      } finally {
        await browser.close();
      }
      console.log(`explorer on 50 topics, page loads in Chromium: ${timings.join(", ")}`);
      assert.ok(timings.length >= 7);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
