import assert from "node:assert/strict";
import {
  clearNuggetAssignments,
  clearTopicNuggets,
  openWorkspace,
  readNuggetJudgments,
  readNuggetLabels,
  readNuggetPassageTexts,
  readNuggetSupport,
  readNuggetTopicCounts,
  readStoredNuggets,
  type Workspace,
  writeNuggetAssignments,
  writeNuggetPassages,
  writeNuggets,
} from "./mod.ts";
import { clearNuggetImportance, clearNuggetOrigin, readNuggetOrigins } from "./nuggets.ts";

const nugget = (topicId: string, origin: string, ordinal: number, importance: string | null) => ({
  topicId,
  origin,
  ordinal,
  text: `${topicId} fact ${ordinal}`,
  importance,
  kept: true,
});
const label = (run: string, topicId: string, origin: string, ordinal: number, judge: string) => ({
  run,
  topicId,
  origin,
  ordinal,
  judge,
  label: ordinal === 1 ? "support" : "not_support",
});
const passage = (topicId: string, origin: string, ordinal: number) => ({
  topicId,
  origin,
  ordinal,
  passageId: `${topicId}:${ordinal}`,
  windowIndex: 0,
  text: `${topicId} passage ${ordinal}`,
  status: "ok",
});

async function filled(): Promise<Workspace> {
  const ws = await openWorkspace(await Deno.makeTempDir());
  await writeNuggets(ws, [
    nugget("t2", "o", 1, "okay"),
    nugget("t1", "o", 2, null),
    nugget("t1", "o", 1, "vital"),
    nugget("t1", "p", 1, "okay"),
  ]);
  await writeNuggetPassages(ws, [
    passage("t1", "o", 2),
    passage("t1", "o", 1),
    passage("t2", "o", 1),
  ]);
  await writeNuggetAssignments(ws, [
    label("r2", "t1", "o", 1, "m"),
    label("r1", "t1", "o", 2, "m"),
    label("r1", "t1", "o", 1, "m"),
    label("r1", "t2", "o", 1, "m"),
    label("r1", "t1", "o", 1, "n"),
    label("r1", "t1", "p", 1, "m"),
  ]);
  return ws;
}

const count = async (ws: Workspace, table: string) =>
  (await ws.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))[0].n;

Deno.test("readStoredNuggets: one origin, by topic and ordinal, nulls kept", async () => {
  const ws = await filled();
  try {
    const rows = await readStoredNuggets(ws, "o");
    assert.deepEqual(rows.map((r) => [r.topicId, r.ordinal, r.importance]), [
      ["t1", 1, "vital"],
      ["t1", 2, null],
      ["t2", 1, "okay"],
    ]);
    assert.equal(rows[0].importanceBy, null);
    assert.equal(rows[0].kept, true);
    assert.deepEqual(
      (await readNuggetPassageTexts(ws, "o")).map((p) => p.text),
      ["t1 passage 1", "t1 passage 2", "t2 passage 1"],
    );
  } finally {
    ws.close();
  }
});

Deno.test("nugget labels and judgments: one origin and judge, ordered, with importance", async () => {
  const ws = await filled();
  try {
    assert.deepEqual(
      (await readNuggetLabels(ws, "o", "m")).map((l) => `${l.run} ${l.topicId}`),
      ["r1 t1", "r1 t1", "r1 t2", "r2 t1"],
    );
    assert.deepEqual(await readNuggetJudgments(ws, "o", "m"), [
      { run: "r1", topicId: "t1", importance: "vital", label: "support" },
      { run: "r1", topicId: "t1", importance: null, label: "not_support" },
      { run: "r1", topicId: "t2", importance: "okay", label: "support" },
      { run: "r2", topicId: "t1", importance: "vital", label: "support" },
    ]);
  } finally {
    ws.close();
  }
});

Deno.test("clearNuggetAssignments deletes exactly one run's labels of one origin and judge", async () => {
  const ws = await filled();
  try {
    assert.equal(await clearNuggetAssignments(ws, { run: "r1", origin: "o", judge: "m" }), 3);
    const left = await ws.query<{ run: string; origin: string; judge: string }>(
      `SELECT run, origin, judge FROM nugget_assignments ORDER BY ALL`,
    );
    assert.deepEqual(left, [
      { run: "r1", origin: "o", judge: "n" },
      { run: "r1", origin: "p", judge: "m" },
      { run: "r2", origin: "o", judge: "m" },
    ]);
  } finally {
    ws.close();
  }
});

Deno.test("clearTopicNuggets clears one topic and origin; passages only when asked", async () => {
  const ws = await filled();
  try {
    await clearTopicNuggets(ws, { topicId: "t1", origin: "o" });
    assert.equal(await count(ws, "nuggets"), 2); // t2/o and t1/p
    assert.equal(await count(ws, "nugget_assignments"), 2); // r1 t2/o and r1 t1/p
    assert.equal(await count(ws, "nugget_passages"), 3);
    await clearTopicNuggets(ws, { topicId: "t1", origin: "o", passages: true });
    assert.deepEqual(
      await ws.query(`SELECT topic_id, origin FROM nugget_passages`),
      [{ topicId: "t2", origin: "o" }],
    );
    assert.deepEqual(
      (await readStoredNuggets(ws, "p")).map((r) => r.topicId),
      ["t1"],
    );
  } finally {
    ws.close();
  }
});

Deno.test("nugget reads: support credit and failed labels per run and importance; counts per topic", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const n = (
      topicId: string,
      ordinal: number,
      importance: string,
      kept: boolean | null = true,
    ) => ({
      topicId,
      origin: "o",
      ordinal,
      text: `n${ordinal}`,
      importance,
      kept,
    });
    await ws.upsert("nuggets", [
      n("t", 1, "vital"),
      n("t", 2, "okay"),
      n("t", 3, "failed", null),
      n("t", 4, "okay", false),
      n("u", 1, "vital"),
      { ...n("t", 1, "vital"), origin: "other" },
    ]);
    await ws.upsert("nugget_passages", [
      { topicId: "t", origin: "o", ordinal: 1, passageId: "t:0#0", windowIndex: 0 },
      { topicId: "t", origin: "o", ordinal: 2, passageId: "t:0#1", windowIndex: 0 },
      { topicId: "t", origin: "o", ordinal: 3, passageId: "t:0#2", windowIndex: 1 },
      // v: its only window failed, no nugget.
      {
        topicId: "v",
        origin: "o",
        ordinal: 1,
        passageId: "v:0#0",
        windowIndex: 0,
        status: "failed",
      },
    ]);
    const a = (run: string, topicId: string, ordinal: number, label: string, judge = "j") => ({
      run,
      topicId,
      origin: "o",
      ordinal,
      judge,
      label,
    });
    await ws.upsert("nugget_assignments", [
      a("r", "t", 1, "support"),
      a("r", "u", 1, "partial_support"),
      a("r", "t", 2, "failed"),
      a("r", "t", 3, "partial_support"),
      a("r", "t", 4, "not_support"),
      a("r", "t", 1, "not_support", "other"),
    ]);
    const support = (await readNuggetSupport(ws, "o", "j"))
      .sort((x, y) => x.importance < y.importance ? -1 : 1);
    // okay = every importance but vital: (0 + 0.5 + 0) / 3, one failed label; vital: (1 + 0.5) / 2.
    assert.equal(support.length, 2);
    assert.deepEqual(support[0], { run: "r", importance: "okay", credit: 0.5 / 3, failed: 1 });
    assert.deepEqual(support[1], { run: "r", importance: "vital", credit: 0.75, failed: 0 });
    const topics = (await readNuggetTopicCounts(ws, "o"))
      .sort((x, y) => x.topicId < y.topicId ? -1 : 1);
    assert.deepEqual(topics, [
      {
        topicId: "t",
        passages: 3,
        windows: 2,
        failedWindows: 0,
        nuggets: 4,
        vital: 1,
        okay: 2,
        failed: 1,
        kept: 3,
      },
      {
        topicId: "u",
        passages: 0,
        windows: 0,
        failedWindows: 0,
        nuggets: 1,
        vital: 1,
        okay: 0,
        failed: 0,
        kept: 1,
      },
      {
        topicId: "v",
        passages: 1,
        windows: 1,
        failedWindows: 1,
        nuggets: 0,
        vital: 0,
        okay: 0,
        failed: 0,
        kept: 0,
      },
    ]);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nugget clears: importance from files stays, one origin's or judge's rows go", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    const n = (origin: string, ordinal: number, importanceBy: string | null) => ({
      topicId: "t1",
      origin,
      ordinal,
      text: "n",
      importance: importanceBy ? "vital" : null,
      importanceBy,
      importanceCall: importanceBy ? "c" : null,
      kept: false,
    });
    await ws.insert("nuggets", [
      n("b", 1, "llm:m"),
      n("b", 2, "file"),
      n("a", 1, "llm:m"),
    ]);
    await ws.insert("nugget_passages", [{ topicId: "t1", origin: "b", ordinal: 1 }]);
    const as = (run: string, origin: string, judge: string) => ({
      run,
      topicId: "t1",
      origin,
      ordinal: 1,
      judge,
      label: "support",
    });
    await ws.insert("nugget_assignments", [
      as("rag", "b", "j"),
      as("rag", "b", "k"),
      as("direct", "b", "j"),
      as("rag", "a", "j"),
    ]);
    assert.deepEqual(await readNuggetOrigins(ws), ["a", "b"]);
    await clearNuggetImportance(ws, "b");
    assert.deepEqual(
      await ws.query(
        `SELECT origin, ordinal, importance, importance_by, importance_call, kept FROM nuggets
         ORDER BY origin, ordinal`,
      ),
      [
        {
          origin: "a",
          ordinal: 1,
          importance: "vital",
          importanceBy: "llm:m",
          importanceCall: "c",
          kept: false,
        },
        {
          origin: "b",
          ordinal: 1,
          importance: null,
          importanceBy: null,
          importanceCall: null,
          kept: true,
        },
        {
          origin: "b",
          ordinal: 2,
          importance: "vital",
          importanceBy: "file",
          importanceCall: "c",
          kept: false,
        },
      ],
    );
    await clearNuggetAssignments(ws, { run: "rag", origin: "b", judge: "j" });
    const assigned = async () =>
      (await ws.query<{ k: string }>(
        "SELECT run || '/' || origin || '/' || judge AS k FROM nugget_assignments ORDER BY k",
      )).map((r) => r.k);
    assert.deepEqual(await assigned(), ["direct/b/j", "rag/a/j", "rag/b/k"]);
    await clearNuggetOrigin(ws, "b");
    assert.deepEqual(await assigned(), ["rag/a/j"]);
    assert.deepEqual(await readNuggetOrigins(ws), ["a"]);
    assert.equal(await ws.count("nugget_passages"), 0);
  } finally {
    ws.close();
  }
});
