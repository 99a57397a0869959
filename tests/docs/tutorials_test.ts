/**
 * The tutorial pages run as written: their `sh tutorial` blocks are executed on a
 * generated release-shaped fixture and on the bundled sample, with the offline backends.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeAlignedRelease } from "../support/aligned_release_fixture.ts";
import { runTutorial, tutorialBlocks } from "../support/tutorial_runner.ts";
import { startOpenAiServer } from "../support/openai_server.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const page = (name: string) => Deno.readTextFile(join(ROOT, "docs", name));

Deno.test("tutorial blocks are found with their lines", () => {
  const md =
    "# T\n\n```sh\nnot run\n```\n\n```sh tutorial\necho a\necho b\n```\n\n```sh tutorial\necho c\n```\n";
  const blocks = tutorialBlocks(md);
  assert.deepEqual(blocks, [{ line: 8, text: "echo a\necho b" }, { line: 13, text: "echo c" }]);
  assert.throws(
    () => tutorialBlocks("```sh tutorial\necho a\n"),
    /Unclosed tutorial block at line 1/,
  );
});

Deno.test("a broken command in a tutorial fails the run and names its block", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-tutorial-" });
  try {
    const md = [
      "```sh tutorial",
      "echo first > first.txt",
      "```",
      "```sh tutorial",
      "npx -y deno task crux import crux --workspace ws --no-such-flag x",
      "echo never > never.txt",
      "```",
    ].join("\n");
    const result = await runTutorial(tutorialBlocks(md), dir);
    assert.equal(result.ok, false);
    assert.equal(result.failedAt, 5);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /no-such-flag/);
    assert.equal(await Deno.readTextFile(join(dir, "first.txt")), "first\n");
    await assert.rejects(Deno.stat(join(dir, "never.txt")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("docs/reproduce_crux_duc.md runs on a release-shaped fixture", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-tutorial-duc-" });
  try {
    const release = await writeAlignedRelease(dir);
    const blocks = tutorialBlocks(await page("reproduce_crux_duc.md"));
    assert.ok(blocks.length >= 4);
    const result = await runTutorial(blocks, dir);
    assert.ok(result.ok, `block at line ${result.failedAt} failed:\n${result.stderr.slice(-3000)}`);
    const main = await Deno.readTextFile(join(dir, "duc04", "tables", "main_table.md"));
    for (const run of ["bm25", "lancer"]) assert.match(main, new RegExp(run));
    // Every topic of the release was imported.
    assert.match(result.stdout, new RegExp(`^topics\\t${release.topics.length}$`, "m"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("docs/evaluate_your_rag.md runs on the bundled sample", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-tutorial-rag-" });
  try {
    await Deno.symlink(join(ROOT, "datasets"), join(dir, "datasets"));
    // The endpoint block's model judge answers every question with rating 4.
    await using server = startOpenAiServer({ chat: () => ({ content: "Rating: 4" }) });
    const result = await runTutorial(tutorialBlocks(await page("evaluate_your_rag.md")), dir, {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: "test",
    });
    assert.ok(result.ok, `block at line ${result.failedAt} failed:\n${result.stderr.slice(-3000)}`);
    // The answer file's two runs were imported and scored by nuggets and by CRUX.
    const nuggets = await Deno.readTextFile(join(dir, "my-rag", "tables", "nugget_scores.md"));
    assert.match(nuggets, /\| my-rag \|/);
    assert.match(nuggets, /\| my-rag-short \|/);
    assert.match(result.stdout, /^my-rag\t2\t/m);
    // Key point recall: the full answer covers the key point, the short one does not.
    assert.match(result.stdout, /^my-rag +1\.0000 /m);
    assert.match(result.stdout, /^my-rag-short +0\.0000 /m);
    // crux compare shows the file routes' values (KPR, Sub-q rating) beside CRUX and nuggets,
    // over sample-01, the one topic every method scored: KPR 1 and 0 as above; every
    // sub-question of the offline decomposition answered by both runs, rating 1. CRUX Cov of
    // sample-01 (my-rag 0.556) is the per-topic value behind the 0.3333 mean of `judge reports`
    // ((0.556 + 0.111) / 2).
    assert.match(result.stdout, /^my-rag\t2\t0\.3333\t/m);
    assert.match(result.stdout, /^1\. my-rag +1 +0\.556\S* +\d\.\d{3}\S* +1\.000\S* +1\.000\S*$/m);
    assert.match(
      result.stdout,
      /^2\. my-rag-short +1 +0\.111\S* +\d\.\d{3}\S* +0\.000\S* +1\.000\S*$/m,
    );
    assert.match(
      result.stdout,
      /judges: .*KPR file:entailments\.jsonl; Sub-q rating file:coverage\.jsonl/,
    );
    assert.match(result.stdout, /^sample-02 +my-rag +0\.111 +\S+ +- +1\.000$/m);
    // Rated 4 (>= tau 3) on every sub-question by the endpoint's judge: coverage 1 on both topics.
    assert.match(result.stdout, /^my-rag-short\t2\t1\.0000\t/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
