/**
 * Answers posted at the same moment and servers killed mid-write: 60 answers of 3
 * annotators posted 20 at a time are all acknowledged and stored exactly as posted,
 * and a server process killed while replacing an answer leaves the old or the new
 * answer, never neither.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { serveWorkspace } from "@lib/serve/mod.ts";
import { openWorkspace, readAnnotationLabels, readAnnotatorQueue } from "@lib/store/mod.ts";
import { create, FIRST, SECOND, workspace } from "./_fixture.ts";

const CLI = fileURLToPath(new URL("../../lib/cli/main.ts", import.meta.url));

/** The answer annotator `k` gives to the `i`-th item of their queue: varied and checkable. */
function answer(k: number, i: number): { label: string; span?: string } {
  const r = (k * 7 + i) % 3;
  return r === 0 ? { label: "0" } : { label: "1", span: r === 1 ? FIRST : SECOND };
}

function post(
  base: string,
  token: string,
  item: string,
  answer: { label: string; span?: string },
) {
  const body: Record<string, string> = { label: answer.label };
  if (answer.span) body.span = answer.span;
  return fetch(`${base}/annotate/${token}/${encodeURIComponent(item)}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams(body).toString(),
  });
}

Deno.test({
  name:
    "60 answers of 3 annotators posted 20 at a time: every one acknowledged and stored as posted",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir);
    const ws0 = await openWorkspace(dir, { readOnly: true });
    const queues = await Promise.all(
      ["a", "b", "c"].map((a) => readAnnotatorQueue(ws0, "answerability", a)),
    );
    ws0.close();
    // 5 reports per run x 2 runs x 2 sub-questions = 20 items, each seen by all 3.
    assert.deepEqual(queues.map((q) => q.length), [20, 20, 20]);
    const posts = ["a", "b", "c"].flatMap((a, k) =>
      queues[k].map((item, i) => ({ annotator: a, token: tokens.get(a)!, item, ...answer(k, i) }))
    );
    assert.equal(posts.length, 60);
    const server = await serveWorkspace(dir, { port: 0, annotate: true });
    const statuses: number[] = [];
    try {
      for (let from = 0; from < posts.length; from += 20) {
        const batch = posts.slice(from, from + 20);
        const responses = await Promise.all(
          batch.map((p) => post(server.url, p.token, p.item.itemId, p)),
        );
        for (const r of responses) {
          statuses.push(r.status);
          await r.body?.cancel();
        }
      }
    } finally {
      await server.shutdown();
    }
    assert.deepEqual(statuses, posts.map(() => 303));
    const ws = await openWorkspace(dir, { readOnly: true });
    const stored = await readAnnotationLabels(ws, "answerability");
    ws.close();
    const key = (a: string, item: string) => `${a}\u0000${item}`;
    const got = new Map(stored.map((l) => [key(l.annotator, l.itemId), [l.label, l.span]]));
    assert.equal(stored.length, 60);
    for (const p of posts) {
      assert.deepEqual(got.get(key(p.annotator, p.item.itemId)), [p.label, p.span], p.item.itemId);
    }
    await Deno.remove(dir, { recursive: true });
  },
});

/** Starts `crux serve --annotate` as a process; resolves with it and its base URL. */
async function spawnServer(dir: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "serve", "--annotate", "--workspace", dir, "--port", "0"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`crux serve ended before listening: ${seen}`);
    seen += value;
    const m = seen.match(/at (http:\/\/[^/\s]+)\/annotate/);
    if (m) {
      // Keep draining stderr so the process never blocks on a full pipe.
      (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
      })();
      return { child, url: m[1] };
    }
  }
}

Deno.test({
  name: "a server killed 20 times while replacing an answer keeps the old or the new one",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir);
    const ws0 = await openWorkspace(dir, { readOnly: true });
    const [item] = await readAnnotatorQueue(ws0, "answerability", "a");
    ws0.close();
    const token = tokens.get("a")!;
    const versions: { label: string; span?: string }[] = [
      { label: "1", span: FIRST },
      { label: "1", span: SECOND },
      { label: "0" },
    ];
    const read = async () => {
      // Read-write, so a write-ahead log left by the kill is replayed and folded in.
      const ws = await openWorkspace(dir);
      try {
        return (await readAnnotationLabels(ws, "answerability"))
          .filter((l) => l.annotator === "a" && l.itemId === item.itemId)
          .map((l) => (l.span ? { label: l.label, span: l.span } : { label: l.label }));
      } finally {
        ws.close();
      }
    };
    // A first answer, stored and acknowledged normally.
    let first = await spawnServer(dir);
    const r0 = await post(first.url, token, item.itemId, versions[0]);
    assert.equal(r0.status, 303);
    await r0.body?.cancel();
    first.child.kill("SIGKILL");
    await first.child.status;
    let current = versions[0];
    assert.deepEqual(await read(), [current]);
    const outcomes = { old: 0, new: 0 };
    for (let round = 0; round < 20; round++) {
      const next = versions[(round + 1) % versions.length];
      first = await spawnServer(dir);
      const sent = post(first.url, token, item.itemId, next).then(
        async (r) => {
          await r.body?.cancel();
          return r.status;
        },
        () => 0,
      );
      // Kill 0-40 ms after the request leaves: before, during or after the write.
      await new Promise((r) => setTimeout(r, (round * 13) % 41));
      first.child.kill("SIGKILL");
      await first.child.status;
      const status = await sent;
      const stored = await read();
      assert.equal(stored.length, 1, `round ${round}: the item holds no answer`);
      if (status === 303) {
        assert.deepEqual(stored[0], next, `round ${round}: acknowledged but not stored`);
      } else {
        assert.ok(
          same(stored[0], current) || same(stored[0], next),
          `round ${round}: neither the old nor the new answer: ${JSON.stringify(stored[0])}`,
        );
      }
      if (same(stored[0], next)) {
        outcomes.new++;
        current = next;
      } else outcomes.old++;
    }
    console.log(`20 kills: ${outcomes.new} kept the new answer, ${outcomes.old} the old one`);
    await Deno.remove(dir, { recursive: true });
  },
});

function same(a: { label: string; span?: string }, b: { label: string; span?: string }): boolean {
  return a.label === b.label && a.span === b.span;
}
