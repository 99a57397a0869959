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
import { studyWorkspace } from "../support/study_workspace.ts";
import { annotateQueue, annotatorTokens, type AnswerRule } from "../support/scripted_annotator.ts";

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

Deno.test("a server block serves while the test talks to it, then is stopped", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-tutorial-server-" });
  try {
    const md = [
      "```sh tutorial",
      "echo before",
      "```",
      "```sh tutorial server",
      // Stands for a server: notes its arguments, prints its address, then waits (the
      // runner adds --port 0; it may stop the server as soon as the address is printed).
      "bash -c 'echo $@ > args.txt; echo serving at http://127.0.0.1:9/x >&2; sleep 60' _",
      "```",
      "```sh tutorial",
      "echo after",
      "```",
    ].join("\n");
    const blocks = tutorialBlocks(md);
    assert.deepEqual(blocks.map((b) => b.server ?? false), [false, true, false]);
    const seen: { url: string; stdout: string }[] = [];
    const t0 = Date.now();
    const ok = await runTutorial(blocks, dir, {}, {
      whileServing: (s) => Promise.resolve(void seen.push(s)),
    });
    assert.ok(ok.ok, ok.stderr);
    assert.ok(Date.now() - t0 < 30_000, "stopped, not waited for");
    assert.deepEqual(seen, [{ url: "http://127.0.0.1:9", stdout: "before\n" }]);
    assert.equal(await Deno.readTextFile(join(dir, "args.txt")), "--port 0\n");
    assert.match(ok.stdout, /before\nafter\n$/);
    // What the test does while serving fails: the block fails and the next does not run.
    const bad = await runTutorial(blocks, dir, {}, {
      whileServing: () => Promise.reject(new Error("no answer")),
    });
    assert.deepEqual([bad.ok, bad.failedAt], [false, 5]);
    assert.match(bad.stderr, /while serving: Error: no answer/);
    assert.doesNotMatch(bad.stdout, /after/);
    // Without whileServing, or a server that exits before printing an address: fails.
    assert.equal((await runTutorial(blocks, dir)).failedAt, 5);
    const exits = await runTutorial(tutorialBlocks("```sh tutorial server\ntrue\n```"), dir, {}, {
      whileServing: () => Promise.resolve(),
    });
    assert.deepEqual([exits.ok, exits.failedAt], [false, 2]);
    assert.match(exits.stderr, /the server exited/);
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
    // The qrels export: TREC qrels lines of the selection's topics.
    const qrels = (await Deno.readTextFile(join(dir, "crux_pr.qrels"))).trim().split("\n");
    assert.ok(qrels.length > 0);
    for (const l of qrels) assert.match(l, /^\S+ 0 \S+ \d+$/, l);
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

/** The scripted annotators' rules over "Question n of tK?" (the span: "Answer n of tK."). */
const RULES: Record<string, (t: number, n: number) => boolean> = {
  // Answerable: every first question.
  ann: (_, n) => n === 1,
  // As ann, but t2's first question is not answerable and t1's second is.
  bob: (t, n) => (n === 1 && t !== 2) || (n === 2 && t === 1),
  // Only the first questions of t1-t5.
  cy: (t, n) => n === 1 && t <= 5,
};

const rule = (name: string): AnswerRule => (question) => {
  const m = /^Question (\d+) of t(\d+)\?$/.exec(question);
  if (!m) throw new Error(`unexpected question "${question}"`);
  const [n, t] = [Number(m[1]), Number(m[2])];
  return RULES[name](t, n) ? { label: "1", span: `Answer ${n} of t${t}.` } : { label: "0" };
};

Deno.test({
  name: "docs/human_study.md runs: a scripted annotator answers a real annotation server",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "crux-tutorial-study-" });
    // 10 topics of 2 sub-questions, 2 generation runs: 5 reports per run, each topic once.
    const ws = await studyWorkspace({
      prefix: "crux-tutorial-study-ws-",
      topics: Array.from({ length: 10 }, (_, i) => `t${i + 1}`),
      questions: 2,
      runs: ["rag", "direct"],
      report: (_, t) => `Report on ${t}. Answer 1 of ${t}. Answer 2 of ${t}.`,
    });
    try {
      await Deno.mkdir(join(dir, "outputs"));
      await Deno.rename(ws, join(dir, "outputs", "demo"));
      const posted: Record<string, number> = {};
      const result = await runTutorial(tutorialBlocks(await page("human_study.md")), dir, {}, {
        whileServing: async ({ url, stdout }) => {
          const tokens = annotatorTokens(stdout);
          assert.deepEqual([...tokens.keys()], ["ann", "bob", "cy"]);
          for (const [name, token] of tokens) {
            posted[name] = await annotateQueue(url, token, rule(name));
          }
        },
      });
      assert.ok(
        result.ok,
        `block at line ${result.failedAt} failed:\n${result.stderr.slice(-3000)}`,
      );
      // Every annotator answered all 20 (report, sub-question) items.
      assert.deepEqual(posted, { ann: 20, bob: 20, cy: 20 });
      // By hand over the 20 items (every annotator labels every one): ann says yes to the
      // 10 first questions; bob differs on (t1, 2) and (t2, 1); cy says yes to 5.
      // Cohen ann-bob: po 18/20, pe .5 x .5 + .5 x .5 = .5 -> (.9 - .5) / .5 = 0.8.
      // ann-cy: po 15/20, pe .5 x .25 + .5 x .75 = .5 -> 0.5. bob-cy: both yes 4, bob only 6,
      // cy only 1, neither 9 -> po 13/20, pe .5 -> 0.3.
      // Fleiss: 13 items unanimous (P_i 1), 7 split 2-1 (P_i 1/3): mean 23/30; yes share
      // 25/60, pe (5/12)^2 + (7/12)^2 = 37/72 -> (23/30 - 37/72) / (35/72) = 91/175 = 0.52.
      // Randolph (2 categories): (23/30 - 1/2) / (1/2) = 0.5333. Krippendorff (nominal):
      // 7 split items give 14 disagreeing pairs of 60 values, expected 2 x 25 x 35 / (60 x 59):
      // 1 - (14/60) / (1750/3540) = 0.528. Majority yes on 10 of 20 items.
      const value = (key: string) => {
        const m = new RegExp(`^${key.replace(/[[\]]/g, "\\$&")} +(\\S+)$`, "m").exec(result.stdout);
        assert.ok(m, key);
        return Number(m[1]);
      };
      assert.equal(value("items"), 20);
      assert.equal(value("complete_items"), 20);
      assert.equal(value("cohen_kappa[1,2]"), 0.8);
      assert.equal(value("cohen_kappa[1,3]"), 0.5);
      assert.equal(value("cohen_kappa[2,3]"), 0.3);
      assert.equal(value("fleiss_kappa"), 0.52);
      assert.equal(value("randolph_kappa"), 0.5333);
      assert.equal(value("krippendorff_alpha.nominal"), 0.528);
      assert.equal(value("majority_positive_rate"), 0.5);
      // The export wrote one line per report (10 reports) for each annotator.
      for (const a of ["ann", "bob", "cy"]) {
        assert.match(result.stdout, new RegExp(`^study/${a}\\.jsonl\\t10 lines$`, "m"));
      }
      assert.match(
        result.stdout,
        /^confusion 1 \(rows\) x 2 \(columns\), 20 items: 0\/0 9 {2}0\/1 1 {2}1\/0 1 {2}1\/1 9$/m,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
