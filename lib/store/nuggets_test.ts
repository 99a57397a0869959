import assert from "node:assert/strict";
import {
  clearNuggetAssignments,
  clearTopicNuggets,
  openWorkspace,
  readNuggetJudgments,
  readNuggetLabels,
  readNuggetPassageTexts,
  readStoredNuggets,
  type Workspace,
  writeNuggetAssignments,
  writeNuggetPassages,
  writeNuggets,
} from "./mod.ts";

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
