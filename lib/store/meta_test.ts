import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import { deleteMetaPrefix, readPassageTokenizer } from "./meta.ts";
import { readMetaJson, writeMetaJson } from "./meta_json.ts";
import { recordTokenizer } from "./provenance.ts";
import { metaKeyRemoval, readMetaText } from "./mod.ts";

Deno.test("deleteMetaPrefix deletes exactly the keys with the prefix; an empty prefix is refused", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await writeMetaJson(ws, 'measure_values:["bm25","h"]', { a: 1 });
    await writeMetaJson(ws, 'measure_values:["bm25","g"]', { a: 2 });
    await writeMetaJson(ws, 'measure_values:["bm25-rm3","h"]', { a: 3 });
    await deleteMetaPrefix(ws, 'measure_values:["bm25",');
    assert.equal(await readMetaJson(ws, 'measure_values:["bm25","h"]'), undefined);
    assert.equal(await readMetaJson(ws, 'measure_values:["bm25","g"]'), undefined);
    assert.deepEqual(await readMetaJson(ws, 'measure_values:["bm25-rm3","h"]'), { a: 3 });
    await assert.rejects(() => deleteMetaPrefix(ws, ""), RangeError);
    const [v] = await ws.query<{ value: string }>(
      "SELECT value FROM meta WHERE key = 'schema_version'",
    );
    assert.ok(v !== undefined);
  } finally {
    ws.close();
  }
});

Deno.test("readPassageTokenizer reads what recordTokenizer wrote, undefined before", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    assert.equal(await readPassageTokenizer(ws), undefined);
    await recordTokenizer(ws, "whitespace");
    assert.equal(await readPassageTokenizer(ws), "whitespace");
  } finally {
    ws.close();
  }
});

Deno.test("readMetaText returns the stored text; metaKeyRemoval's statement removes exactly that key", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    assert.equal(await readMetaText(ws, "it's"), undefined);
    await ws.upsert("meta", [{ key: "it's", value: "not json {" }, { key: "other", value: "1" }]);
    assert.equal(await readMetaText(ws, "it's"), "not json {");
    assert.equal(metaKeyRemoval("figure_palette"), "DELETE FROM meta WHERE key = 'figure_palette'");
    await ws.exec(metaKeyRemoval("it's"));
    assert.equal(await readMetaText(ws, "it's"), undefined);
    assert.equal(await readMetaText(ws, "other"), "1");
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
