/**
 * The reference pages under docs/reference/ are generated from the code; this test
 * regenerates them in memory and fails when a committed page differs (run `deno task docs`).
 */
import { RERANK_METHODS } from "@lib/pipeline/mod.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "@lib/cli/registry.ts";
import { defaultRegistry } from "@lib/metrics/mod.ts";
import { referencePages } from "../support/reference_pages.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("docs/reference pages equal what the code generates", async () => {
  const pages = await referencePages();
  assert.equal(pages.size, 3);
  for (const [path, text] of pages) {
    const committed = await Deno.readTextFile(join(ROOT, path)).catch(() => "(missing)");
    assert.ok(committed === text, `${path} is stale: run \`deno task docs\` and commit it`);
  }
});

Deno.test("the generated pages name every command and every measure", async () => {
  const pages = await referencePages();
  const cli = pages.get("docs/reference/cli.md")!;
  for (const c of COMMANDS) assert.ok(cli.includes(`\n## crux ${c.name}\n`), c.name);
  const measures = pages.get("docs/reference/measures.md")!;
  for (const m of ["P", "nDCG", "alpha_nDCG", "Cov", "Den"]) {
    assert.ok(defaultRegistry().get(m), m);
    assert.ok(measures.includes(`\n## ${m}\n`), m);
  }
  const config = pages.get("docs/reference/config.md")!;
  // A field of analysis and one of each method section, read from the code.
  assert.match(config, /\| `human` \| `string` \|/);
  assert.match(config, /### `keypoints` \(Key points\)\n\nFields: `rounds`/);
});

Deno.test("help texts agree with the docs: every reranker, and --name for qrels exports", async () => {
  const cli = (await referencePages()).get("docs/reference/cli.md")!;
  const rerank = cli.slice(cli.indexOf("\n## crux rerank\n"), cli.indexOf("\n## crux construct\n"));
  assert.equal(RERANK_METHODS.length, 8);
  for (const m of RERANK_METHODS) assert.ok(rerank.includes(m), `crux rerank --help names ${m}`);
  const run = cli.slice(cli.indexOf("\n## crux run\n"), cli.indexOf("\n## crux import\n"));
  for (const m of RERANK_METHODS) {
    assert.ok(run.includes(m), `crux run --help names the reranker ${m}`);
  }
});
