import assert from "node:assert/strict";
import { metaKeyRemoval, openWorkspace, readMetaText } from "./mod.ts";

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
