/**
 * The explorer shows what the workspace holds, on a hand-made workspace: the
 * types of sub-questions (topic page, report coverage), whole passages on demand,
 * each highlighted span tied to its sub-question, ids in natural order (k1, k2,
 * k10), a compare page that opens on two written reports, tables sortable under
 * the page's policy (in Chromium), and a layout that fits 1280 px.
 */
import assert from "node:assert/strict";
import { explorerResponse, serveWorkspace } from "@lib/serve/mod.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

const LONG = "Opening words of a long passage. " + "Middle words repeat here. ".repeat(20) +
  "The closing sentence says the budget was 42 million.";
const REPORT = "The tram opened in 2019. It cost 42 million. Fares will rise next year.";
const QUESTIONS = ["When did the tram open?", "What did it cost?", "Will fares rise?"];
const TYPES = ["core", "background", "follow-up"];

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function build(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "explorer-views-" });
  const ws = await openWorkspace(dir);
  try {
    await ws.insert("topics", [{ topicId: "t1", request: "Report on the tram." }]);
    await ws.insert(
      "questions",
      QUESTIONS.map((text, i) => ({
        topicId: "t1",
        questionId: `t1-q${i + 1}`,
        kind: "subquestion",
        ordinal: i + 1,
        text,
      })),
    );
    // The typing step's copy of the same questions (one differs in case and punctuation),
    // and a decomposition of its own.
    await ws.insert("subq_questions", [
      ...QUESTIONS.map((text, i) => ({
        topicId: "t1",
        source: "crux",
        ordinal: i + 1,
        text: i === 1 ? "what did it COST" : text,
        type: TYPES[i],
      })),
      { topicId: "t1", source: "decompose", ordinal: 1, text: "Who built it?", type: "core" },
    ]);
    const ids = ["p10", "p2", "p1"];
    await ws.insert(
      "passages",
      ids.map((id) => ({ passageId: id, topicId: "t1", docId: id, text: id === "p1" ? LONG : id })),
    );
    await ws.insert(
      "runs",
      ids.map((id, i) => ({ run: "bm25", topicId: "t1", docId: id, rank: i + 1, score: 3 - i })),
    );
    await ws.insert(
      "qrels",
      ids.map((id) => ({ name: "crux_pr", topicId: "t1", subtopic: "0", docId: id, grade: 3 })),
    );
    await ws.insert("generations", [
      { run: "a-empty", topicId: "t1", text: "" },
      { run: "b-rag", topicId: "t1", text: REPORT },
      { run: "c-direct", topicId: "t1", text: "A short report." },
    ]);
    await ws.insert("subq_coverage", [
      {
        textKey: await sha256(REPORT),
        subQuestion: QUESTIONS[0],
        judge: "j",
        answered: true,
        span: "opened in 2019",
      },
      {
        textKey: await sha256(REPORT),
        subQuestion: QUESTIONS[1],
        judge: "j",
        answered: true,
        span: "cost 42 million",
      },
      {
        textKey: await sha256(REPORT),
        subQuestion: QUESTIONS[2],
        judge: "j",
        answered: false,
      },
    ]);
    for (const id of ["k10", "k2", "k1"]) {
      await ws.insert("keypoints", [{
        topicId: "t1",
        keypointId: id,
        level: "doc",
        text: `Point ${id}`,
        source: "s",
      }]);
      await ws.insert("keypoint_labels", [{
        run: "b-rag",
        topicId: "t1",
        keypointId: id,
        label: "covered",
        judge: "j",
        source: "s",
      }]);
    }
  } finally {
    ws.close();
  }
  return dir;
}

async function get(ws: Workspace, path: string) {
  const r = await explorerResponse(ws, new Request(`http://127.0.0.1${path}`));
  return {
    status: r.status,
    csp: r.headers.get("content-security-policy") ?? "",
    text: await r.text(),
  };
}

const order = (text: string, needles: string[]) => needles.map((n) => text.indexOf(n));

Deno.test("explorer: types, whole passages, spans tied to sub-questions, natural order, compare default", async () => {
  const dir = await build();
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const topic = await get(ws, "/topic/t1");
    assert.equal(topic.status, 200);
    // The type column: each question's row ends with its type.
    for (const [i, q] of QUESTIONS.entries()) {
      assert.ok(
        topic.text.includes(`<td>${q}</td><td>?</td><td>${TYPES[i]}</td>`),
        `type of ${q}`,
      );
    }
    // The decomposition's own typed question is listed with its source.
    assert.match(topic.text, /Typed sub-questions from decompose \(1: core 1\)/);
    assert.ok(topic.text.includes("<td>Who built it?</td><td>core</td>"));
    // The whole passage is in the page, behind <details>; the preview is cut.
    assert.ok(topic.text.includes("<details>"));
    assert.ok(topic.text.includes(LONG), "whole text present");
    assert.ok(topic.text.includes(`(all ${LONG.length} characters)`));
    // P* and ranked ids in natural order: p1, p2, p10.
    const pstar = topic.text.slice(topic.text.indexOf("Required passages"));
    const [p1, p2, p10] = order(pstar, ["<td>p1</td>", "<td>p2</td>", "<td>p10</td>"]);
    assert.ok(p1 < p2 && p2 < p10, `${p1} ${p2} ${p10}`);
    // Compare link opens on the default; the default skips the empty report.
    assert.ok(topic.text.includes(`href="/compare/t1"`));
    const cmp = await get(ws, "/compare/t1");
    assert.equal(cmp.status, 200);
    assert.match(cmp.text, /<title>Compare b-rag and c-direct on t1<\/title>/);
    const chosen = await get(ws, "/compare/t1?a=a-empty&b=b-rag");
    assert.match(chosen.text, /\(an empty report\)/);

    const report = await get(ws, "/report/b-rag/t1");
    assert.equal(report.status, 200);
    // Each mark names its sub-question and links to its coverage row, and back.
    assert.ok(
      report.text.includes(
        `<mark id="span-1" title="Answers: ${
          QUESTIONS[0]
        }">opened in 2019<sup><a href="#cov-1">1</a></sup></mark>`,
      ),
    );
    assert.ok(
      report.text.includes(
        `<mark id="span-2" title="Answers: ${
          QUESTIONS[1]
        }">cost 42 million<sup><a href="#cov-2">2</a></sup></mark>`,
      ),
    );
    assert.ok(report.text.includes(`<td class="num" id="cov-1"><a href="#span-1">1</a></td>`));
    // The coverage table has the type column, matched to the typed questions.
    assert.match(report.text, /<th>#<\/th><th>sub-question<\/th><th>type<\/th><th>answered<\/th>/);
    assert.ok(report.text.includes(`<td>${QUESTIONS[1]}</td><td>background</td><td>yes</td>`));
    assert.ok(report.text.includes(`<td>${QUESTIONS[2]}</td><td>follow-up</td><td>no</td>`));
    // Key points k1, k2, k10.
    const kp = report.text.slice(report.text.indexOf("Key point entailment"));
    const [k1, k2, k10] = order(kp, ["<td>k1</td>", "<td>k2</td>", "<td>k10</td>"]);
    assert.ok(k1 > 0 && k1 < k2 && k2 < k10, `${k1} ${k2} ${k10}`);
    // One script per page, allowed by the nonce of the response.
    const nonce = report.csp.match(/script-src 'nonce-([^']+)'/)?.[1];
    assert.ok(nonce);
    assert.equal(report.text.split("<script").length, 2);
    assert.ok(report.text.includes(`<script nonce="${nonce}">`));
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "explorer in Chromium: a header click sorts under the policy, pages fit 1280 px",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await build();
    const server = await serveWorkspace(dir, { port: 0 });
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const blocked: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
      });
      for (const path of ["/", "/topic/t1", "/report/b-rag/t1", "/compare/t1"]) {
        await page.goto(server.url + path, { waitUntil: "load" });
        const width = await page.evaluate(() =>
          (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } })
            .document.documentElement.scrollWidth
        );
        assert.ok(width <= 1280, `${path}: ${width} px wide`);
      }
      await page.goto(`${server.url}/topic/t1`, { waitUntil: "load" });
      // The ranked table of bm25: rank 1..3 is p10, p2, p1; sort by passage, natural order.
      const table = page.locator("#run-bm25 + p + div table");
      const passages = () => table.locator("tbody tr td:nth-child(2)").allInnerTexts();
      assert.deepEqual(await passages(), ["p10", "p2", "p1"]);
      await table.locator("th", { hasText: "passage" }).click();
      assert.deepEqual(await passages(), ["p1", "p2", "p10"]);
      // Again, from the keyboard: focus the header, Enter reverses.
      await table.locator("th", { hasText: "passage" }).focus();
      await page.keyboard.press("Enter");
      assert.deepEqual(await passages(), ["p10", "p2", "p1"]);
      assert.deepEqual(blocked, []);
      // The whole passage opens on demand.
      await page.locator("details summary").first().click();
      assert.ok(
        (await page.locator("details div.text").first().innerText()).endsWith("42 million."),
      );
    } finally {
      await browser.close();
      await server.shutdown();
    }
    await Deno.remove(dir, { recursive: true });
  },
});
