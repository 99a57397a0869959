/**
 * The manifest of saved analyses (`analyses.json`) lists each table's cells
 * file, and the output guard owns exactly what it lists; a manifest written
 * before cells files were listed (version 1) still lets a re-run replace them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { saveAnalysis } from "@lib/analysis/mod.ts";
import { topicCoverage } from "@lib/analysis/topic_coverage.ts";
import { tinyData } from "@lib/analysis/testdata/tiny_data.ts";
import { AnalysisFolderConflictError, guardAnalysisOutputs } from "@lib/report/mod.ts";

const CELLS = "tables/topic_coverage.cells.jsonl";

async function manifest(dir: string) {
  return JSON.parse(await Deno.readTextFile(join(dir, "analyses.json")));
}

Deno.test("saveAnalysis lists the table's cells file in analyses.json; the guard lets a re-run replace it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const analysis = topicCoverage(tinyData());
    assert.ok(analysis.cells?.length, "the analysis names its cells' rows");
    await saveAnalysis(analysis, dir);
    const m = await manifest(dir);
    assert.equal(m.version, 2);
    assert.deepEqual(m.analyses.map((a: { name: string; cells?: string }) => [a.name, a.cells]), [
      ["topic_coverage", CELLS],
    ]);
    const lines = (await Deno.readTextFile(join(dir, CELLS))).trim().split("\n");
    assert.equal(lines.length, analysis.cells!.length);
    await guardAnalysisOutputs(dir, ["topic_coverage"]);
    // The entry without its cells file: the cells file is no longer the workbench's.
    const { cells: _, ...entry } = m.analyses[0];
    await Deno.writeTextFile(
      join(dir, "analyses.json"),
      JSON.stringify({ version: 2, analyses: [entry] }),
    );
    await assert.rejects(
      () => guardAnalysisOutputs(dir, ["topic_coverage"]),
      (e) =>
        e instanceof AnalysisFolderConflictError &&
        e.message.includes(`${CELLS} exists and was not written by the workbench`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a version 1 manifest without cells entries still lets a re-run overwrite the cells files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const analysis = topicCoverage(tinyData());
    await saveAnalysis(analysis, dir);
    const fresh = await Deno.readTextFile(join(dir, CELLS));
    // The folder as the workbench left it before cells files were listed.
    const old = (await manifest(dir)).analyses.map(({ cells: _, ...a }: { cells?: string }) => a);
    assert.equal(old.length, 1);
    assert.equal("cells" in old[0], false);
    await Deno.writeTextFile(
      join(dir, "analyses.json"),
      JSON.stringify({ version: 1, analyses: old }, null, 2) + "\n",
    );
    await Deno.writeTextFile(join(dir, CELLS), '{"row":"written by the old version"}\n');
    await guardAnalysisOutputs(dir, ["topic_coverage"]);
    await saveAnalysis(analysis, dir);
    assert.equal(await Deno.readTextFile(join(dir, CELLS)), fresh);
    const m = await manifest(dir);
    assert.equal(m.version, 2);
    assert.equal(m.analyses.length, 1);
    assert.equal(m.analyses[0].cells, CELLS);
    await guardAnalysisOutputs(dir, ["topic_coverage"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
