import assert from "node:assert/strict";
import { join } from "node:path";
import { InputError } from "@lib/formats/mod.ts";
import { importRun } from "./import_trec.ts";
import { openWorkspace } from "./open_workspace.ts";

async function imported(text: string) {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    await Deno.writeTextFile(join(dir, "r.run"), text);
    let dropped = -1;
    const n = await importRun(ws, join(dir, "r.run"), { onDuplicates: (d) => dropped = d });
    const rows = await ws.query<{ topicId: string; docId: string; rank: number; score: number }>(
      "SELECT topic_id, doc_id, rank, score FROM runs ORDER BY topic_id, score DESC, doc_id",
    );
    return { n, dropped, rows: rows.map((r) => `${r.topicId} ${r.docId} ${r.rank} ${r.score}`) };
  } finally {
    ws.close();
  }
}

Deno.test("importRun keeps a repeated document's best-ranked occurrence, grouped or not", async () => {
  // Grouped by topic: d1 twice in t1 (the later line scores higher and is kept).
  const grouped = await imported(
    "t1 Q0 d1 3 1.0 r\nt1 Q0 d2 2 2.0 r\nt1 Q0 d1 1 3.0 r\nt2 Q0 d1 1 1.0 r\n",
  );
  assert.deepEqual(grouped, {
    n: 3,
    dropped: 1,
    rows: ["t1 d1 1 3", "t1 d2 2 2", "t2 d1 1 1"],
  });
  // The same lines with t1 split by t2: the same rows and the same count.
  const ungrouped = await imported(
    "t1 Q0 d1 3 1.0 r\nt2 Q0 d1 1 1.0 r\nt1 Q0 d2 2 2.0 r\nt1 Q0 d1 1 3.0 r\n",
  );
  assert.deepEqual(ungrouped, grouped);
  // Equal scores: the lower rank wins; an exact repeat is one row.
  const ties = await imported("t Q0 d 2 1 r\nt Q0 d 1 1 r\nt Q0 e 3 0.5 r\nt Q0 e 3 0.5 r\n");
  assert.deepEqual(ties, { n: 2, dropped: 2, rows: ["t d 1 1", "t e 3 0.5"] });
});

Deno.test("importRun stores nothing from a file with a bad line, and names the line", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    await Deno.writeTextFile(join(dir, "r.run"), "t Q0 d 1 1 r\n");
    await importRun(ws, join(dir, "r.run"));
    await Deno.writeTextFile(join(dir, "r.run"), "t Q0 e 1 1 r\nt Q0 f 2 x r\n");
    await assert.rejects(
      () => importRun(ws, join(dir, "r.run")),
      (e) => e instanceof InputError && /r\.run:2: score: expected a number/.test(e.message),
    );
    assert.deepEqual((await ws.runRows("r")).map((r) => r.docId), ["d"]);
  } finally {
    ws.close();
  }
});
