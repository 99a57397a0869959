import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { InputError } from "@lib/formats/mod.ts";
import { readMultiNewsParquet } from "./multi_news_parquet.ts";

Deno.test("readMultiNewsParquet reads document/summary columns and names missing ones", async () => {
  const dir = await Deno.makeTempDir();
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  await c.run(
    `COPY (SELECT * FROM (VALUES ('P1. ||||| P2.', 'S1'), ('Q1.', 'S2')) t(document, summary))
     TO '${join(dir, "mn.parquet")}' (FORMAT parquet)`,
  );
  await c.run(`COPY (SELECT 'x' AS text) TO '${join(dir, "bad.parquet")}' (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
  assert.deepEqual(await readMultiNewsParquet(join(dir, "mn.parquet"), { limit: 5 }), [
    { index: 0, documents: ["P1.", "P2."], summary: "S1" },
    { index: 1, documents: ["Q1."], summary: "S2" },
  ]);
  assert.deepEqual(await readMultiNewsParquet(join(dir, "mn.parquet"), { limit: 1 }), [
    { index: 0, documents: ["P1.", "P2."], summary: "S1" },
  ]);
  await assert.rejects(
    () => readMultiNewsParquet(join(dir, "bad.parquet")),
    (e: unknown) =>
      e instanceof InputError &&
      e.message === `${join(dir, "bad.parquet")}: document, summary: missing column; found text`,
  );
  await assert.rejects(() => readMultiNewsParquet(join(dir, "none.parquet")), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});
