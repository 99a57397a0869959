import assert from "node:assert/strict";
import { runTableChunks } from "./run_table_chunks.ts";
import { runTableRows } from "./run_table.ts";

const enc = new TextEncoder();

/** A run of `topics` topics x 3 lines, cut into chunks of whole lines of about `size` bytes. */
function chunked(topics: number, size: number) {
  let text = "";
  for (let t = 0; t < topics; t++) {
    for (let r = 1; r <= 3; r++) text += `q${t} Q0 d${t}-${r} ${r} ${10 - r}.5 run\n`;
  }
  const bytes = enc.encode(text);
  const chunks = [];
  let from = 0;
  while (from < bytes.length) {
    let to = Math.min(bytes.length, from + size);
    to = to === bytes.length ? to : bytes.lastIndexOf(10, to - 1) + 1;
    if (to <= from) to = bytes.indexOf(10, from) + 1;
    chunks.push({ bytes: bytes.slice(from, to), offset: from });
    from = to;
  }
  return chunks;
}

Deno.test("runTableChunks: reused arrays give each table the rows it gives without reuse", async () => {
  const chunks = chunked(40, 200);
  const plain = [];
  for await (const c of runTableChunks(chunks)) plain.push(runTableRows(c.table!));
  const reused = [];
  const columns = new Set<Int32Array>();
  for await (const c of runTableChunks(chunks, { reuse: true })) {
    reused.push(runTableRows(c.table!)); // read before the next table is asked for
    columns.add(c.table!.start);
  }
  assert.deepEqual(reused, plain);
  assert.equal(plain.flat().length, 120);
  assert.equal(plain.flat()[4].docId, "d1-2");
  assert.equal(plain.flat()[4].score, 8.5);
  // The tables share their column arrays (fresh ones only when a chunk does not fit).
  assert.ok(columns.size < reused.length, `${columns.size} arrays for ${reused.length} tables`);
});
