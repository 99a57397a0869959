/**
 * `crux serve --annotate` holds the workspace file only while it answers: another
 * process opens it read-write and commits while the server is up, an answer posted
 * while that process holds the file gets 503 with `Retry-After` (nothing stored),
 * and the answers posted after it are stored beside what it wrote.
 */
import assert from "node:assert/strict";
import { openWorkspace, readAnnotationLabels, readAnnotatorQueue } from "@lib/store/mod.ts";
import { create, FIRST, SECOND, workspace } from "./_fixture.ts";
import { spawnServer } from "./_spawn_server.ts";

Deno.test({
  name:
    "another process writes the workspace while crux serve --annotate runs; answers after it are stored",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir, "a,b", 2);
    const ws0 = await openWorkspace(dir, { readOnly: true });
    const queue = await readAnnotatorQueue(ws0, "answerability", "a");
    ws0.close();
    const [u1, u2, u3] = [...Map.groupBy(queue, (i) => i.unit).values()];
    const A = tokens.get("a")!;
    const server = await spawnServer(dir);
    const post = async (item: string, body: Record<string, string>) => {
      const r = await fetch(`${server.url}/annotate/${A}/${item}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams(body).toString(),
      });
      return { status: r.status, retry: r.headers.get("retry-after"), text: await r.text() };
    };
    const unitForm = { "label-0": "1", "span-0": FIRST, "label-1": "0" };
    try {
      assert.equal((await post(u1[0].itemId, unitForm)).status, 303);
      // A store write from this process while the server is up: it opens and commits.
      const ws = await openWorkspace(dir);
      try {
        await ws.upsert("meta", [{ key: "written_beside_annotation", value: "yes" }]);
        // While it holds the file, an answer is refused as busy, and nothing is stored.
        const busy = await post(u2[0].itemId, unitForm);
        assert.equal(busy.status, 503);
        assert.equal(busy.retry, "2");
        assert.match(busy.text, /Your answers were not saved/);
        const page = await fetch(`${server.url}/annotate/${A}`);
        assert.equal(page.status, 503);
        await page.body?.cancel();
      } finally {
        ws.close();
      }
      // Once it is done, the answers are stored, the refused ones sent again.
      assert.equal((await post(u2[0].itemId, unitForm)).status, 303);
      assert.equal(
        (await post(u3[1].itemId, { "label-0": "0", "label-1": "1", "span-1": SECOND })).status,
        303,
      );
      const queuePage = await (await fetch(`${server.url}/annotate/${A}`)).text();
      assert.match(queuePage, new RegExp(`Progress: 6 / ${queue.length} done`));
    } finally {
      server.child.kill("SIGINT");
      await server.child.status;
    }
    const ws = await openWorkspace(dir, { readOnly: true });
    const labels = (await readAnnotationLabels(ws, "answerability")).filter((l) =>
      l.annotator === "a"
    );
    const [meta] = await ws.query<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'written_beside_annotation'",
    );
    ws.close();
    assert.equal(meta.value, "yes");
    assert.deepEqual(
      labels.map((l) => [l.itemId, l.label, l.span]),
      [
        [u1[0].itemId, "1", FIRST],
        [u1[1].itemId, "0", undefined],
        [u2[0].itemId, "1", FIRST],
        [u2[1].itemId, "0", undefined],
        [u3[0].itemId, "0", undefined],
        [u3[1].itemId, "1", SECOND],
      ],
    );
    await Deno.remove(dir, { recursive: true });
  },
});
