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

const TABLE = {
  csv: "tables/main_table.csv",
  md: "tables/main_table.md",
  tex: "tables/main_table.tex",
  html: "tables/main_table.html",
};

Deno.test("guardAnalysisOutputs: a table's cells file is ours when the manifest lists it; a foreign one is refused", async () => {
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
    // The CSV listed without the cells file: the cells file is not the workbench's.
    await recordGalleryEntry(dir, {
      name: "main_table",
      title: "Main",
      subtitle: [],
      notes: [],
      table: TABLE,
    });
    await assert.rejects(
      () => guardAnalysisOutputs(dir, ["main_table"]),
      (e) =>
        e instanceof AnalysisFolderConflictError &&
        e.message.includes("tables/main_table.cells.jsonl exists and was not written"),
    );
    // Listed with its cells file: both may be replaced.
    await recordGalleryEntry(dir, {
      name: "main_table",
      title: "Main",
      subtitle: [],
      notes: [],
      table: TABLE,
      cells: "tables/main_table.cells.jsonl",
    });
    await guardAnalysisOutputs(dir, ["main_table"]);
    const manifest = JSON.parse(await Deno.readTextFile(join(dir, "analyses.json")));
    assert.equal(manifest.version, 2);
    assert.equal(manifest.analyses[0].cells, "tables/main_table.cells.jsonl");
    // Saved again without cells, the entry keeps the cells file the workbench wrote.
    await recordGalleryEntry(dir, {
      name: "main_table",
      title: "Main",
      subtitle: [],
      notes: [],
      table: TABLE,
    });
    await guardAnalysisOutputs(dir, ["main_table"]);
    // A cells file no entry lists stays foreign.
    await Deno.writeTextFile(join(dir, "tables", "other.cells.jsonl"), "{}\n");
    await assert.rejects(
      () => guardAnalysisOutputs(dir, ["other"], { option: "--workspace" }),
      /--workspace ".*": tables\/other\.cells\.jsonl exists/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("guardAnalysisOutputs: a version 1 manifest, which listed no cells files, owns the cells file beside each listed CSV", async () => {
  const dir = await folder([
    "tables/main_table.csv",
    "tables/main_table.cells.jsonl",
    "tables/other.cells.jsonl",
  ]);
  try {
    // As the workbench wrote it before cells files were listed.
    await Deno.writeTextFile(
      join(dir, "analyses.json"),
      JSON.stringify({
        version: 1,
        analyses: [{ name: "main_table", title: "Main", subtitle: [], notes: [], table: TABLE }],
      }),
    );
    await guardAnalysisOutputs(dir, ["main_table"]);
    await assert.rejects(
      () => guardAnalysisOutputs(dir, ["other"]),
      /tables\/other\.cells\.jsonl exists and was not written/,
    );
    // Recording another entry writes version 2, with the old entry's cells file listed.
    await recordGalleryEntry(dir, { name: "other", title: "Other", subtitle: [], notes: [] });
    const manifest = JSON.parse(await Deno.readTextFile(join(dir, "analyses.json")));
    assert.equal(manifest.version, 2);
    assert.deepEqual(manifest.analyses.map((a: { cells?: string }) => a.cells), [
      "tables/main_table.cells.jsonl",
      undefined,
    ]);
    await guardAnalysisOutputs(dir, ["main_table"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("guardAnalysisOutputs: a manifest of another version is an error naming the file", async () => {
  const dir = await folder(["tables/main_table.csv"]);
  try {
    await Deno.writeTextFile(
      join(dir, "analyses.json"),
      JSON.stringify({ version: 3, analyses: [] }),
    );
    await assert.rejects(
      () => guardAnalysisOutputs(dir, ["main_table"]),
      new RegExp(`${dir}/analyses\\.json:1: version: expected a manifest of version 1 or 2`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
