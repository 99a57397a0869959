// A condition whose reports all failed keeps its row: an online `crux run` whose
// every generation call fails writes a main table with a blank row per such
// condition, each cell's reason "all N reports failed", and a threshold table
// whose blank cells name those pipelines with the same reason.
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { runCommand } from "@lib/cli/commands/run.ts";
import { writeFaultConfig } from "./_faults.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply, promptKind } from "../support/fake_model.ts";
import { tinyWorkspaceDir } from "./_tiny.ts";

type Cell = { row: string; column: string; reason?: string; key?: { run: string } };

async function cellsOf(dir: string, name: string): Promise<Cell[]> {
  const text = await Deno.readTextFile(join(dir, "tables", `${name}.cells.jsonl`));
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

Deno.test("a condition whose reports all failed shows a blank row with the reason, in the main and threshold tables", async () => {
  await using srv = startOpenAiServer({
    chat: (req) => promptKind(req) === "report" ? { status: 500 } : { content: fakeReply(req) },
  });
  const dir = await tinyWorkspaceDir();
  try {
    const file = await writeFaultConfig(join(dir, "config.json"), dir, srv.url);
    const io = memoryIo();
    assert.equal(await main(["run", "--config", file], io, [runCommand]), 1, io.stderr());
    const csv = await Deno.readTextFile(join(dir, "tables", "main_table.csv"));
    const lines = csv.split("\n").filter((l) => l);
    const rows = lines.filter((l) => !l.startsWith("# ")).slice(1).map((l) => l.split(","));
    // The pipeline and both generated references keep their rows, every value blank.
    assert.deepEqual(rows.map((r) => r[0]), [
      "bm25",
      "Direct (no context)",
      "Oracle context P*",
      "Oracle result",
      "Kendall τ (context vs report)",
    ]);
    for (const r of rows.slice(0, 3)) assert.deepEqual(r.slice(2), ["", "", "", "", ""], r[0]);
    const why = "all 2 reports failed; re-run to retry";
    const cells = await cellsOf(dir, "main_table");
    const reasons = (row: string) =>
      cells.filter((c) => c.row === row).map((c) => [c.column, c.reason]);
    const all = ["covZ", "andcg", "covY", "denZ", "denY"].map((m) => [`tiny:${m}`, why]);
    assert.deepEqual(reasons("bm25"), all);
    assert.deepEqual(reasons("Oracle context P*"), all);
    const none = "does not apply to this condition";
    assert.deepEqual(reasons("Direct (no context)"), [
      ["tiny:covZ", none],
      ["tiny:andcg", none],
      ["tiny:covY", why],
      ["tiny:denZ", none],
      ["tiny:denY", why],
    ]);
    assert.ok(lines.includes(`# No value of Cov(Z): bm25 (${why}), Oracle context P* (${why}).`));
    // The threshold table: no statistic over the pipelines, each blank naming bm25.
    const threshold = await cellsOf(dir, "threshold_table");
    const stats = threshold.filter((c) => /:(mean|sd)$/.test(c.column));
    assert.equal(stats.length, 20);
    for (const c of stats) {
      const t = c.column.split(":")[1];
      assert.match(
        c.reason ?? "",
        new RegExp(`^no stored measure to read for bm25 .* at t = ${t} \\(`),
      );
      assert.ok((c.reason ?? "").endsWith(`(${why})`), JSON.stringify(c));
    }
    const thresholdCsv = await Deno.readTextFile(join(dir, "tables", "threshold_table.csv"));
    assert.ok(thresholdCsv.includes(`# t = 5: no value of Den(y): bm25 (${why}).\n`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
