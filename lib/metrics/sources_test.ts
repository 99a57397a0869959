import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/** The project's internal spec documents, which published code must not cite. */
const INTERNAL = new RegExp(
  `\\b(${["METRICS", "PROTOCOLS", "FORMATS", "DESIGN"].join("|")})\\.md\\b`,
);

/** Source files of the measures and of `crux eval`. */
async function sources(): Promise<string[]> {
  const files: string[] = [];
  for (
    const [dir, pattern] of [["./", /\.ts$/], [
      "../cli/commands/",
      /^(eval|_eval_\w+)\.ts$/,
    ]] as const
  ) {
    const url = new URL(dir, import.meta.url);
    for await (const entry of Deno.readDir(url)) {
      if (entry.isFile && pattern.test(entry.name)) {
        files.push(fileURLToPath(new URL(entry.name, url)));
      }
    }
  }
  return files;
}

Deno.test("measure sources cite published definitions, not internal documents", async () => {
  const offending: string[] = [];
  for (const file of await sources()) {
    (await Deno.readTextFile(file)).split("\n").forEach((line, i) => {
      if (INTERNAL.test(line)) offending.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(offending, []);
});
