/**
 * The explorer on the sample experiment: every page kind answers with the
 * workspace's own values, hostile text renders as text (also in headless
 * Chromium), files outside tables/ and figures/ are not served, and only
 * loopback is bound without an explicit flag.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { COMMANDS } from "@lib/cli/registry.ts";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";
import { explorerResponse, markSpans, serveWorkspace } from "@lib/serve/mod.ts";
import { openWorkspace, passageJudge, type Workspace } from "@lib/store/mod.ts";

const root = new URL("../../", import.meta.url).pathname;
const CONFIG = "notebooks/configs/sample-offline.json";
const HOSTILE =
  `<script>window.__hit = 1</script><img src=x onerror="window.__hit = 2">"quoted" & 'single'`;
const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

let built: Promise<{ dir: string; topic: string; passage: string }> | undefined;

/** The sample experiment, once per file, with one passage and one report made hostile. */
function experiment() {
  built ??= (async () => {
    const name = Deno.env.get("CRUX_SERVE_TEST_EXPERIMENT") ??
      `servetest-${crypto.randomUUID().slice(0, 8)}`;
    const config = await loadExperimentConfig(join(root, CONFIG), { experiment: name, root });
    await runCruxExperiment(config, {});
    const ws = await openWorkspace(config.workspace);
    try {
      const [{ topic, passage }] = await ws.query<{ topic: string; passage: string }>(
        `SELECT topic_id AS topic, doc_id AS passage FROM runs WHERE run = 'bm25'
         ORDER BY topic_id, score DESC, doc_id DESC LIMIT 1`,
      );
      await ws.exec("UPDATE passages SET text = $1 || text WHERE passage_id = $2", [
        HOSTILE,
        passage,
      ]);
      await ws.exec(
        "UPDATE generations SET text = $1 || text WHERE run = 'rag-bm25' AND topic_id = $2",
        [HOSTILE, topic],
      );
      return { dir: config.workspace, topic, passage };
    } finally {
      ws.close();
    }
  })();
  return built;
}

async function get(ws: Workspace, path: string) {
  const r = await explorerResponse(ws, new Request(`http://127.0.0.1${path}`));
  return { status: r.status, type: r.headers.get("content-type") ?? "", text: await r.text() };
}

function assertEscaped(html: string) {
  // The one script is the explorer's own, allowed by the response's nonce.
  assert.equal(html.split("<script").length, 2, "one script element in the page");
  assert.match(html, /<script nonce="[A-Za-z0-9+/=]+">\(function \(\) \{\n {2}function key/);
  assert.ok(!/<img[^>]*onerror/i.test(html), "no element with an event handler");
}

Deno.test({
  name: "explorer pages show the workspace's own values and escape hostile text",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { dir, topic, passage } = await experiment();
    const ws = await openWorkspace(dir, { readOnly: true });
    try {
      // Experiment page: every topic, every run, every gallery entry.
      const home = await get(ws, "/");
      assert.equal(home.status, 200);
      for (const t of await ws.topics()) {
        assert.ok(home.text.includes(`/topic/${encodeURIComponent(t.topicId)}"`));
      }
      for (const r of ["bm25", "rag-bm25", "direct", "oracle-context"]) {
        assert.ok(home.text.includes(`<td>${r}</td>`), r);
      }
      const manifest = JSON.parse(await Deno.readTextFile(join(dir, "analyses.json")));
      assert.match(home.text, new RegExp(`Tables and figures \\(${manifest.analyses.length}\\)`));

      // Topic page: one heat cell per (passage, sub-question) with the judge's rating.
      const tp = await get(ws, `/topic/${encodeURIComponent(topic)}?k=5`);
      assert.equal(tp.status, 200);
      assertEscaped(tp.text);
      assert.ok(tp.text.includes("&lt;script&gt;window.__hit = 1&lt;/script&gt;"));
      const judge = await passageJudge(ws, "test");
      const questions = await ws.questions({ topicId: topic, kind: "subquestion" });
      const ratings = await ws.ratings({ topicId: topic, judge, itemId: passage });
      const section = tp.text.slice(tp.text.indexOf('id="run-bm25"'));
      const body = section.indexOf("<tbody>");
      const firstRow = section.slice(body, section.indexOf("</tr>", body));
      const cells = [...firstRow.matchAll(/<td class="heat"[^>]*>(\d?)<\/td>/g)].map((m) => m[1]);
      assert.equal(cells.length, questions.length);
      const byQ = new Map(ratings.map((r) => [r.questionId, String(r.rating)]));
      assert.deepEqual(
        cells,
        questions.sort((a, b) => a.ordinal - b.ordinal).map((q) => byQ.get(q.questionId) ?? ""),
      );
      assert.match(section, /judged@5: \d\.\d\d/);

      // Report page: the CRUX ratings of the report, per judge, and escaped text.
      const rp = await get(ws, `/report/rag-bm25/${encodeURIComponent(topic)}`);
      assert.equal(rp.status, 200);
      assertEscaped(rp.text);
      assert.ok(rp.text.includes("&lt;img src=x onerror=&quot;window.__hit = 2&quot;&gt;"));
      assert.match(rp.text, /CRUX answerability \(0-5\) per sub-question/);
      assert.match(rp.text, /Nugget assignments \(\d+\)/);

      // Compare page: each difference equals the measure table's values.
      const cp = await get(ws, `/compare/${encodeURIComponent(topic)}?a=direct&b=rag-bm25`);
      assert.equal(cp.status, 200);
      assertEscaped(cp.text);
      const m = (await ws.measures({ topicId: topic })).filter((x) =>
        x.method === "crux" && x.name === "Cov" && x.source === "report"
      );
      const a = m.find((x) => x.run === "direct")!, b = m.find((x) => x.run === "rag-bm25")!;
      const diff = b.value - a.value;
      assert.ok(
        cp.text.includes(`${diff > 0 ? "+" : ""}${diff.toFixed(4)}`),
        `B - A of ${a.measure}: ${diff}`,
      );

      // Unknown pages, a bad topic, files outside tables/figures.
      assert.equal((await get(ws, "/topic/nope")).status, 404);
      assert.equal((await get(ws, "/report/nope/x")).status, 404);
      assert.equal((await get(ws, "/files/..%2Fworkspace.duckdb")).status, 404);
      assert.equal((await get(ws, "/files/tables/..%2F..%2Fworkspace.duckdb")).status, 404);
      const fig = manifest.analyses.find((e: { figure?: { svg: string } }) => e.figure)!.figure.svg;
      const svg = await get(ws, `/files/${fig}`);
      assert.equal(svg.status, 200);
      assert.equal(svg.type, "image/svg+xml");
      const post = await explorerResponse(ws, new Request("http://127.0.0.1/", { method: "POST" }));
      assert.equal(post.status, 405);
    } finally {
      ws.close();
    }
  },
});

Deno.test("markSpans marks every found span once, escapes everything, reports spans not found", () => {
  const r = markSpans("a <b> c & d", ["<b>", "d", "zz"]);
  assert.equal(r.html, "a <mark>&lt;b&gt;</mark> c &amp; <mark>d</mark>");
  assert.deepEqual(r.missing, ["zz"]);
  assert.equal(markSpans("abcdef", ["bcd", "cde"]).html, "a<mark>bcd</mark><mark>e</mark>f");
});

Deno.test("the explorer binds loopback only, unless remote access is asked for explicitly", async () => {
  const dir = await Deno.makeTempDir();
  (await openWorkspace(dir)).close();
  await assert.rejects(
    () => serveWorkspace(dir, { hostname: "0.0.0.0", port: 0 }),
    /Refusing to serve on 0\.0\.0\.0/,
  );
  const io = memoryIo();
  assert.equal(
    await main(["serve", "--workspace", dir, "--host", "0.0.0.0", "--port", "0"], io, COMMANDS),
    2,
  );
  assert.match(io.stderr(), /not a loopback address; add --allow-remote/);
});

Deno.test({
  name: "explorer in headless Chromium: every page kind loads, hostile text stays text, timings",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { dir, topic } = await experiment();
    const server = await serveWorkspace(dir, { port: 0 });
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
    try {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        d.dismiss();
      });
      const t = encodeURIComponent(topic);
      const timings: string[] = [];
      for (
        const path of [
          "/",
          `/topic/${t}`,
          `/report/rag-bm25/${t}`,
          `/compare/${t}?a=direct&b=rag-bm25`,
        ]
      ) {
        const start = performance.now();
        const res = await page.goto(server.url + path, { waitUntil: "load" });
        timings.push(`${path.split("?")[0]} ${(performance.now() - start).toFixed(0)} ms`);
        assert.equal(res?.status(), 200, path);
        assert.equal(
          await page.evaluate(() => (globalThis as { __hit?: number }).__hit),
          undefined,
        );
        // Only the explorer's own script, which carries the response's nonce.
        assert.deepEqual(
          await page.$$eval("script", (s) => s.map((e) => e.nonce !== "")),
          [true],
        );
        assert.equal(await page.$$eval("img[onerror]", (s) => s.length), 0);
        if (path !== "/") {
          const text = await page.innerText("body");
          assert.ok(text.includes("<script>window.__hit = 1</script>"), path);
        }
      }
      const broken = await (async () => {
        await page.goto(server.url + "/", { waitUntil: "load" });
        return await page.$$eval(
          "img",
          (imgs) =>
            imgs.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) =>
              i.getAttribute("src")
            ),
        );
      })();
      assert.deepEqual(broken, [], "every gallery figure loads");
      assert.deepEqual(dialogs, []);
      console.log(`explorer page loads (sample, 10 topics): ${timings.join(", ")}`);
      await page.screenshot({ path: join(dir, "explorer_topic.png"), fullPage: false });
    } finally {
      await browser.close();
      await server.shutdown();
    }
  },
});
