/**
 * The annotation app in headless Chromium as annotators reach it: the printed
 * 127.0.0.1 link of a server bound to `localhost`, a public URL under another
 * name (resolved to loopback inside the browser), a foreign name refused, and a
 * keyboard-only session on one page per report (both sub-questions in one form)
 * that selects each question's span with Shift and the arrow keys and finishes
 * five units, then a sixth with Tab, the arrow keys and Enter alone.
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
        await page.check('input[name="label-0"][value="1"]');
        await page.fill('textarea[name="span-0"]', FIRST);
        await page.check('input[name="label-1"][value="0"]');
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
    for (const who of ["a", "b"]) {
      assert.deepEqual((await labelsOf(dir, who)).map((l) => [l.label, l.span]), [
        ["1", FIRST],
        ["0", undefined],
      ]);
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "Chromium, keyboard only: a unit's spans selected with Shift and the arrows; Tab, arrows and Enter alone",
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
        // Unit k holds queue items 2k and 2k + 1 (a report's two sub-questions).
        assert.ok(
          page.url().endsWith(`/${encodeURIComponent(queue[2 * k].itemId)}`),
          `${page.url()}: ${await page.locator(".error").allInnerTexts()}`,
        );
        reports.set(queue[2 * k].unit, await page.inputValue("#report-text"));
        assert.match(await page.innerText("body"), new RegExp(`Unit ${k + 1} of 10 `));
        // The page opens with the focus on the first question's "Answerable".
        assert.equal(await focused(), "|label-0|1");
        await page.keyboard.press("Space");
        // Question 1: to the report, and from the end Shift+Ctrl+Left selects the last words.
        await tabTo(/^pick-0\|/);
        await page.keyboard.press("Enter");
        assert.match(await focused(), /^report-text\|/);
        await page.keyboard.press("Control+End");
        for (let w = 0; w < 4; w++) await page.keyboard.press("Shift+Control+ArrowLeft");
        assert.match(await page.inputValue("#span-0"), /there\.$/);
        // Enter in the report moves on to question 2.
        await page.keyboard.press("Enter");
        assert.equal(await focused(), "|label-1|1");
        await page.keyboard.press("Space");
        // Question 2: the first words of the report, Shift+Ctrl+Right from the start.
        await tabTo(/^pick-1\|/);
        await page.keyboard.press("Enter");
        await page.keyboard.press("Control+Home");
        for (let w = 0; w < 3; w++) await page.keyboard.press("Shift+Control+ArrowRight");
        assert.match(await page.inputValue("#span-1"), /^Report on t\d+/);
        assert.equal(await page.inputValue("#span-0").then((v) => /there\.$/.test(v)), true);
        // Enter after the last question: the save button, and Enter saves.
        await page.keyboard.press("Enter");
        assert.match(await focused(), /^save\|/);
        await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      }
      assert.match(await page.innerText("body"), /Progress: 10 \//);
      // Unit 6: the down arrow chooses "Not answerable", Tab goes on to question 2,
      // the down arrow again, and Enter saves.
      assert.equal(await focused(), "|label-0|1");
      await page.keyboard.press("ArrowDown");
      assert.equal(await focused(), "|label-0|0");
      await tabTo(/^\|label-1\|/);
      await page.keyboard.press("ArrowDown");
      assert.equal(await focused(), "|label-1|0");
      await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      assert.match(await page.innerText("body"), /Progress: 12 \//);
    } finally {
      await browser.close();
      await server.shutdown();
    }
    const labels = await labelsOf(dir, "a");
    assert.equal(labels.length, 12);
    const sixth = new Set([queue[10].itemId, queue[11].itemId]);
    for (const l of labels.filter((l) => sixth.has(l.itemId))) {
      assert.deepEqual([l.label, l.span], ["0", undefined]);
    }
    const words = (s: string) => s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).join(" ");
    for (const [k, item] of queue.slice(0, 10).entries()) {
      const l = labels.find((l) => l.itemId === item.itemId)!;
      const report = words(reports.get(item.unit)!);
      assert.equal(l.label, "1");
      assert.ok(l.span && l.span.split(" ").length >= 2, l.span);
      if (k % 2 === 0) {
        // The last words of the report, as selected from the keyboard.
        assert.ok(report.endsWith(words(l.span!)), l.span);
        assert.match(l.span!, /there\.?$/);
      } else {
        // The first words.
        assert.ok(report.startsWith(words(l.span!)), l.span);
        assert.match(l.span!, /^Report on t\d+/);
      }
    }
    await Deno.remove(dir, { recursive: true });
  },
});
