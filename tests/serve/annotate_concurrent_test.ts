/**
 * Answers posted at the same moment and servers killed mid-write: 60 answers of 3
 * annotators, posted 20 requests at a time as whole units (a report's two
 * sub-questions per page) and then changed one answer per request, are all
 * acknowledged and stored exactly as posted; a server process killed while
 * replacing a unit's answers leaves all the old or all the new ones.
 */
import assert from "node:assert/strict";
import { serveWorkspace } from "@lib/serve/mod.ts";
import { openWorkspace, readAnnotationLabels, readAnnotatorQueue } from "@lib/store/mod.ts";
import { create, FIRST, SECOND, workspace } from "./_fixture.ts";
import { spawnServer } from "./_spawn_server.ts";

/** The answer annotator `k` gives to the `i`-th item of their queue: varied and checkable. */
function answer(k: number, i: number): { label: string; span?: string } {
  const r = (k * 7 + i) % 3;
  return r === 0 ? { label: "0" } : { label: "1", span: r === 1 ? FIRST : SECOND };
}

type Answer = { label: string; span?: string };

/** The form of a whole unit (`label-j`, `span-j`), or a single answer (`label`, `span`). */
function fields(answers: Answer | Answer[]): Record<string, string> {
  if (!Array.isArray(answers)) {
    return { label: answers.label, ...(answers.span ? { span: answers.span } : {}) };
  }
  return Object.fromEntries(answers.flatMap((a, j) => [
    [`label-${j}`, a.label],
    ...(a.span ? [[`span-${j}`, a.span]] : []),
  ]));
}

function post(base: string, token: string, item: string, answers: Answer | Answer[]) {
  const body = fields(answers);
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
    // Round 1: every unit's page (2 answers) posted whole, 20 requests at a time.
    const units = ["a", "b", "c"].flatMap((a, k) =>
      [...Map.groupBy(queues[k], (i) => i.unit).values()].map((items) => ({
        annotator: a,
        token: tokens.get(a)!,
        items,
        answers: items.map((item) => answer(k, queues[k].indexOf(item))),
      }))
    );
    assert.equal(units.length, 30);
    assert.equal(units.flatMap((u) => u.answers).length, 60);
    // Round 2: every answer changed alone (`label`, `span`), 20 requests at a time.
    const singles = ["a", "b", "c"].flatMap((a, k) =>
      queues[k].map((item, i) => ({
        annotator: a,
        token: tokens.get(a)!,
        item,
        answer: answer(k, i + 1),
      }))
    );
    assert.equal(singles.length, 60);
    const server = await serveWorkspace(dir, { port: 0, annotate: true });
    const key = (a: string, item: string) => `${a}\u0000${item}`;
    const storedNow = async () => {
      const ws = await openWorkspace(dir, { readOnly: true });
      try {
        const stored = await readAnnotationLabels(ws, "answerability");
        return new Map(stored.map((l) => [key(l.annotator, l.itemId), [l.label, l.span]]));
      } finally {
        ws.close();
      }
    };
    try {
      const statuses: number[] = [];
      for (let from = 0; from < units.length; from += 20) {
        const responses = await Promise.all(
          units.slice(from, from + 20).map((u) =>
            post(server.url, u.token, u.items[0].itemId, u.answers)
          ),
        );
        for (const r of responses) {
          statuses.push(r.status);
          await r.body?.cancel();
        }
      }
      assert.deepEqual(statuses, units.map(() => 303));
      // The server holds the file only while writing: read beside it.
      const got = await storedNow();
      assert.equal(got.size, 60);
      for (const u of units) {
        for (const [j, item] of u.items.entries()) {
          const a = u.answers[j];
          assert.deepEqual(got.get(key(u.annotator, item.itemId)), [a.label, a.span]);
        }
      }
      const again: number[] = [];
      for (let from = 0; from < singles.length; from += 20) {
        const responses = await Promise.all(
          singles.slice(from, from + 20).map((p) =>
            post(server.url, p.token, p.item.itemId, p.answer)
          ),
        );
        for (const r of responses) {
          again.push(r.status);
          await r.body?.cancel();
        }
      }
      assert.deepEqual(again, singles.map(() => 303));
    } finally {
      await server.shutdown();
    }
    const got = await storedNow();
    assert.equal(got.size, 60);
    for (const p of singles) {
      assert.deepEqual(
        got.get(key(p.annotator, p.item.itemId)),
        [p.answer.label, p.answer.span],
        p.item.itemId,
      );
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "a server killed 20 times while replacing a unit's answers keeps all the old or all the new ones",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await workspace();
    const tokens = await create(dir);
    const ws0 = await openWorkspace(dir, { readOnly: true });
    const queue = await readAnnotatorQueue(ws0, "answerability", "a");
    ws0.close();
    const unit = queue.filter((i) => i.unit === queue[0].unit);
    assert.equal(unit.length, 2);
    const token = tokens.get("a")!;
    // Each version answers both sub-questions; no two versions share an answer.
    const versions: Answer[][] = [
      [{ label: "1", span: FIRST }, { label: "0" }],
      [{ label: "1", span: SECOND }, { label: "1", span: FIRST }],
      [{ label: "0" }, { label: "1", span: SECOND }],
    ];
    const read = async () => {
      // Read-write, so a write-ahead log left by the kill is replayed and folded in.
      const ws = await openWorkspace(dir);
      try {
        const mine = (await readAnnotationLabels(ws, "answerability"))
          .filter((l) => l.annotator === "a");
        return unit.map((item) => {
          const l = mine.find((l) => l.itemId === item.itemId);
          return l && (l.span ? { label: l.label, span: l.span } : { label: l.label });
        });
      } finally {
        ws.close();
      }
    };
    // A first answer, stored and acknowledged normally.
    let first = await spawnServer(dir);
    const r0 = await post(first.url, token, unit[0].itemId, versions[0]);
    assert.equal(r0.status, 303);
    await r0.body?.cancel();
    first.child.kill("SIGKILL");
    await first.child.status;
    let current = versions[0];
    assert.deepEqual(await read(), current);
    const outcomes = { old: 0, new: 0 };
    for (let round = 0; round < 20; round++) {
      const next = versions[(round + 1) % versions.length];
      first = await spawnServer(dir);
      const sent = post(first.url, token, unit[0].itemId, next).then(
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
      if (status === 303) {
        assert.deepEqual(stored, next, `round ${round}: acknowledged but not stored`);
      } else {
        assert.ok(
          same(stored, current) || same(stored, next),
          `round ${round}: neither all old nor all new: ${JSON.stringify(stored)}`,
        );
      }
      if (same(stored, next)) {
        outcomes.new++;
        current = next;
      } else outcomes.old++;
    }
    console.log(`20 kills: ${outcomes.new} kept the new answers, ${outcomes.old} the old ones`);
    await Deno.remove(dir, { recursive: true });
  },
});

function same(a: (Answer | undefined)[], b: Answer[]): boolean {
  return a.length === b.length &&
    a.every((x, j) => x !== undefined && x.label === b[j].label && x.span === b[j].span);
}
