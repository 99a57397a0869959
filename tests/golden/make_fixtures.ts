/**
 * Writes every golden-test fixture (seeded, deterministic):
 *
 *     deno run -A tests/golden/make_fixtures.ts [--out DIR] [--include-large]
 *
 * - `trec/fixtures/`: qrels/run pairs for the trec_eval comparison, plus
 *   `<name>.trec_eval.run` (the run without repeated documents) where it differs;
 * - `diversity/fixtures/`: diversity qrels and runs for alpha-nDCG;
 * - `crux/fixtures/`: the synthetic CRUX dataset (corpus, judgments, topics,
 *   sub-questions, runs).
 *
 * `--out` defaults to this folder. Large fixtures are not stored in the
 * repository (tests regenerate them in memory); `--include-large` writes them
 * too, for regenerating their goldens. A `manifest.json` lists what was written.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { trecFixtures } from "./_trec_cases.ts";
import { diversityFixtures } from "./_diversity_cases.ts";
import { cruxFiles } from "./_crux_dataset.ts";

/** Seed and topic count of the synthetic CRUX dataset. */
export const CRUX_SEED = 20241122;
/** Number of synthetic CRUX topics. */
export const CRUX_TOPICS = 20;

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/**
 * Writes the fixtures under `out`.
 *
 * @param out Destination folder (gets `trec/`, `diversity/` and `crux/` subfolders).
 * @param opts `includeLarge` also writes fixtures that are not stored in the repository (default false).
 * @returns The paths written, relative to `out`.
 */
export async function writeFixtures(
  out: string,
  opts: { includeLarge?: boolean } = {},
): Promise<string[]> {
  const written: string[] = [];
  const put = async (rel: string, text: string) => {
    await write(join(out, rel), text);
    written.push(rel);
  };
  const trec = trecFixtures().filter((f) => f.stored || opts.includeLarge);
  for (const f of trec) {
    await put(`trec/fixtures/${f.name}.qrels`, f.qrels);
    await put(`trec/fixtures/${f.name}.run`, f.run);
    if (f.trecEvalRun !== f.run) await put(`trec/fixtures/${f.name}.trec_eval.run`, f.trecEvalRun);
  }
  const manifest = trec.map((f) => ({
    name: f.name,
    description: f.description,
    stored: f.stored,
    trecEvalRun: f.trecEvalRun !== f.run ? `${f.name}.trec_eval.run` : `${f.name}.run`,
  }));
  await put("trec/fixtures/manifest.json", JSON.stringify(manifest, null, 2) + "\n");
  for (const f of diversityFixtures()) {
    await put(`diversity/fixtures/${f.name}.qrels`, f.qrels);
    for (const r of f.runs) await put(`diversity/fixtures/${r.name}.run`, r.text);
  }
  for (const [rel, text] of Object.entries(cruxFiles(CRUX_SEED, CRUX_TOPICS))) {
    await put(`crux/fixtures/${rel}`, text);
  }
  return written;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string" }, "include-large": { type: "boolean", default: false } },
  });
  const out = values.out ?? dirname(fileURLToPath(import.meta.url));
  const written = await writeFixtures(out, { includeLarge: values["include-large"] });
  console.log(`Wrote ${written.length} fixture files under ${out}`);
}
