/**
 * The annotation app in headless Chromium as annotators reach it: the printed
 * 127.0.0.1 link of a server bound to `localhost`, a public URL under another
 * name (resolved to loopback inside the browser), a foreign name refused, and a
 * keyboard-only session that selects each span with Shift and the arrow keys and
 * finishes five items.
 */
import assert from "node:assert/strict";
import { serveWorkspace } from "@lib/serve/mod.ts";
import { openWorkspace, readAnnotationLabels, readAnnotatorQueue } from "@lib/store/mod.ts";
import { create, FIRST, workspace } from "./_fixture.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

async function launch(extra: string[] = []) {
  const { chromium } = await import("playwright-core");
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", ...extra],
  });
}

async function labelsOf(dir: string, annotator: string) {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    return (await readAnnotationLabels(ws, "answerability")).filter((l) =>
      l.annotator === annotator
    );
  } finally {
    ws.close();
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test({
  name:
    "Chromium submits on the printed 127.0.0.1 link behind --host localhost and through --public-url",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir, "a,b", 2);
    const port = freePort();
    const server = await serveWorkspace(dir, {
      port,
      hostname: "localhost",
      annotate: true,
      publicUrl: `http://annotate.example:${port}`,
    });
    // annotate.example and attacker.example stand for other machines' names; inside
    // the browser both resolve to this loopback server.
    const browser = await launch([
      "--host-resolver-rules=MAP annotate.example 127.0.0.1, MAP attacker.example 127.0.0.1",
    ]);
    try {
      const page = await browser.newPage();
      const submitFirst = async (link: string) => {
        await page.goto(link, { waitUntil: "load" });
        await page.click("text=Continue with the next item");
        const item = page.url();
        await page.check('input[name="label"][value="1"]');
        await page.fill('textarea[name="span"]', FIRST);
        await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
        assert.notEqual(page.url(), item, "moved on to the next item");
        assert.ok(!(await page.innerText("body")).includes("Not allowed"));
      };
      await submitFirst(`http://127.0.0.1:${port}/annotate/${tokens.get("a")}`);
      await submitFirst(`http://annotate.example:${port}/annotate/${tokens.get("b")}`);
      const refused = await page.goto(
        `http://attacker.example:${port}/annotate/${tokens.get("a")}`,
      );
      assert.equal(refused?.status(), 421);
    } finally {
      await browser.close();
      await server.shutdown();
    }
    assert.deepEqual((await labelsOf(dir, "a")).map((l) => [l.label, l.span]), [["1", FIRST]]);
    assert.deepEqual((await labelsOf(dir, "b")).map((l) => [l.label, l.span]), [["1", FIRST]]);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "Chromium, keyboard only: select a span with Shift and the arrows, finish five items",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir, "a,b", 2);
    const ws0 = await openWorkspace(dir, { readOnly: true });
    const queue = await readAnnotatorQueue(ws0, "answerability", "a");
    ws0.close();
    const server = await serveWorkspace(dir, { port: 0, annotate: true });
    const browser = await launch();
    const reports = new Map<string, string>();
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/annotate/${tokens.get("a")}`, { waitUntil: "load" });
      const focused = () =>
        page.evaluate(() => {
          const e = (globalThis as unknown as {
            document: { activeElement: { id: string; name?: string; value?: string } | null };
          }).document.activeElement;
          return e ? `${e.id}|${e.name ?? ""}|${e.value ?? ""}` : "";
        });
      /** Presses Tab until the focused element matches, at most 30 times. */
      const tabTo = async (want: RegExp) => {
        for (let i = 0; i < 30; i++) {
          if (want.test(await focused())) return;
          await page.keyboard.press("Tab");
        }
        assert.fail(`no element matching ${want} reached with Tab`);
      };
      // From the queue: Tab to "Continue with the next item" and press Enter.
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press("Tab");
        const text = await page.evaluate(() =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } } })
            .document.activeElement.textContent
        );
        if (text.includes("Continue with the next item")) break;
      }
      await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      for (let k = 0; k < 5; k++) {
        assert.ok(
          page.url().endsWith(`/${encodeURIComponent(queue[k].itemId)}`),
          `${page.url()}: ${await page.locator(".error").allInnerTexts()} ${await page.inputValue(
            "#span",
          ).catch(() => "")}`,
        );
        reports.set(queue[k].itemId, await page.inputValue("#report-text"));
        // The label: focus the radio group, choose "Answerable" with Space.
        await tabTo(/^\|label\|/);
        if (!/\|label\|1$/.test(await focused())) await page.keyboard.press("ArrowUp");
        await page.keyboard.press("Space");
        // The span: in the report, from the end, Shift+Ctrl+Left selects the last words.
        await tabTo(/^report-text\|/);
        await page.keyboard.press("Control+End");
        for (let w = 0; w < 4; w++) await page.keyboard.press("Shift+Control+ArrowLeft");
        await tabTo(/^use-selection\|/);
        await page.keyboard.press("Enter");
        assert.match(await focused(), /^span\|span\|\S/);
        await tabTo(/^save\|/);
        await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      }
      assert.match(await page.innerText("body"), /Progress: 5 \//);
    } finally {
      await browser.close();
      await server.shutdown();
    }
    const labels = await labelsOf(dir, "a");
    assert.equal(labels.length, 5);
    const words = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).join(" ");
    for (const l of labels) {
      assert.equal(l.label, "1");
      // The last words of the report, as selected from the keyboard.
      assert.ok(l.span && l.span.split(" ").length >= 2, l.span);
      assert.ok(words(reports.get(l.itemId)!).endsWith(words(l.span!)), l.span);
      assert.match(l.span!, /there\.?$/);
    }
    await Deno.remove(dir, { recursive: true });
  },
});
