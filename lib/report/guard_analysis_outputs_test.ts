import assert from "node:assert/strict";
import { join } from "node:path";
import { AnalysisFolderConflictError, guardAnalysisOutputs } from "./guard_analysis_outputs.ts";
import { recordGalleryEntry } from "./record_gallery_entry.ts";

async function folder(files: string[]): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(join(dir, "tables"));
  for (const f of files) await Deno.writeTextFile(join(dir, f), "x\n");
  return dir;
}

Deno.test("guardAnalysisOutputs: a table's cells file is ours when its CSV is listed; a foreign one is refused", async () => {
  const dir = await folder(["tables/main_table.csv", "tables/main_table.cells.jsonl"]);
  try {
    // No manifest: both files are foreign, the first (in name order) is named.
    await assert.rejects(
      () => guardAnalysisOutputs(dir, ["main_table"]),
      (e) =>
        e instanceof AnalysisFolderConflictError &&
        e.message.includes("tables/main_table.cells.jsonl exists and was not written"),
    );
    // Another analysis' name is not checked.
    await guardAnalysisOutputs(dir, ["method_system"]);
    await recordGalleryEntry(dir, {
      name: "main_table",
      title: "Main",
      subtitle: [],
      notes: [],
      table: {
        csv: "tables/main_table.csv",
        md: "tables/main_table.md",
        tex: "tables/main_table.tex",
        html: "tables/main_table.html",
      },
    });
    // Listed CSV: it and the cells file saved beside it may be replaced.
    await guardAnalysisOutputs(dir, ["main_table"]);
    // A cells file whose CSV is not listed stays foreign.
    await Deno.writeTextFile(join(dir, "tables", "other.cells.jsonl"), "{}\n");
    await assert.rejects(
      () => guardAnalysisOutputs(dir, ["other"], { option: "--workspace" }),
      /--workspace ".*": tables\/other\.cells\.jsonl exists/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
