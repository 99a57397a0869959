import assert from "node:assert/strict";
import { openWorkspace } from "./open_workspace.ts";
import { deleteMetaPrefix, readPassageTokenizer } from "./meta.ts";
import { readMetaJson, writeMetaJson } from "./meta_json.ts";
import { recordTokenizer } from "./provenance.ts";

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
