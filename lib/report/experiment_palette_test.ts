import assert from "node:assert/strict";
import { openWorkspace } from "@lib/store/mod.ts";
import { experimentPalette, PALETTE_KEY } from "./experiment_palette.ts";

Deno.test("experimentPalette stores the palette and extends it without moving colours", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let ws = await openWorkspace(dir);
    const first = await experimentPalette(ws, [
      { name: "dense", kind: "pipeline" },
      { name: "Oracle context P*", kind: "oracle-context" },
    ]);
    assert.equal(first.series["dense"].color, "#0072B2");
    ws.close();
    ws = await openWorkspace(dir);
    // a later figure names bm25 first: dense keeps its colour, bm25 gets the next one
    const later = await experimentPalette(ws, ["bm25", "dense"]);
    assert.deepEqual(later.order, ["dense", "Oracle context P*", "bm25"]);
    assert.equal(later.series["dense"].color, "#0072B2");
    assert.equal(later.series["Oracle context P*"].color, "#D55E00");
    assert.equal(later.series["bm25"].color, "#E69F00");
    const rows = await ws.query<{ value: string }>("SELECT value FROM meta WHERE key = ?", [
      PALETTE_KEY,
    ]);
    assert.deepEqual(JSON.parse(rows[0].value).order, ["dense", "Oracle context P*", "bm25"]);
    await ws.exec("UPDATE meta SET value = '[1]' WHERE key = ?", [PALETTE_KEY]);
    await assert.rejects(() => experimentPalette(ws, []), {
      message: /meta figure_palette: not a palette .*DELETE FROM meta WHERE key = 'figure_palette'/,
    });
    ws.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
