import assert from "node:assert/strict";
import { importSample, openWorkspace } from "@lib/store/mod.ts";
import { displayArquero, queryTable } from "./query_table.ts";

Deno.test("queryTable runs SQL on the workspace into an arquero table; displayArquero shows it", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await importSample(ws, new URL("../../datasets/sample", import.meta.url).pathname);
    const t = await queryTable(
      ws,
      "SELECT topic_id, count(*) AS passages FROM passages WHERE topic_id <= $1 GROUP BY ALL ORDER BY 1",
      ["sample-03"],
    );
    assert.deepEqual(t.columnNames(), ["topicId", "passages"]);
    assert.deepEqual(t.array("topicId"), ["sample-01", "sample-02", "sample-03"]);
    const total = (await ws.query<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM passages WHERE topic_id <= 'sample-03'",
    ))[0].n;
    assert.equal((t.array("passages") as number[]).reduce((a, b) => a + b, 0), total);
    const bundle = displayArquero(t, { limit: 2 })[Symbol.for("Jupyter.display")]() as Record<
      string,
      string
    >;
    assert.match(bundle["text/html"], /^<table>/);
    assert.match(bundle["text/html"], /3 rows, first 2 shown/);
    assert.equal((bundle["text/html"].match(/<tr>/g) ?? []).length, 3); // header + 2 rows
  } finally {
    ws.close();
  }
});
