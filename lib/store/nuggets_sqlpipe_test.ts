import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import { clearNuggetAssignments } from "./nuggets.ts";
import { clearNuggetImportance, clearNuggetOrigin, readNuggetOrigins } from "./nuggets_sqlpipe.ts";

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
