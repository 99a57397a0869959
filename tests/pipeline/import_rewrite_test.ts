/**
 * Ratings imported with `crux import crux --rewrite` and a run with the
 * original topic ids imported with `crux import run --rewrite` meet: `crux
 * measure` on the workspace gives what `crux eval` gives on the original files,
 * including a passage of another topic's document ranked and rated under a topic.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { openWorkspace } from "../../lib/store/mod.ts";

const root = new URL("../../", import.meta.url).pathname;
const fixtures = join(root, "tests", "golden", "crux", "fixtures");
const MEASURES = "P@10 nDCG@10 alpha_nDCG@10 Cov@10 RR";
const REWRITE = "multi_news-test-=mnt-";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

Deno.test({
  name: "a run imported with the ratings' --rewrite measures as crux eval on the original files",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const p = (n: string) => join(dir, n);
    // Topic 100 ranks first a passage of topic 107's document, rated 5 under topic 100
    // on its first sub-question (topic 100 has 15 sub-questions).
    const foreign = "multi_news-test-107:0#0";
    const run = (await Deno.readTextFile(join(fixtures, "runs", "bm25.run"))).split("\n")
      .filter((l) => l.trim());
    run[0] = `multi_news-test-100 Q0 ${foreign} 1 16 bm25`;
    await Deno.writeTextFile(p("bm25.run"), run.join("\n") + "\n");
    const rating = [5, ...Array(14).fill(0)];
    const judgments = await Deno.readTextFile(join(fixtures, "judgments.jsonl"));
    await Deno.writeTextFile(
      p("judgments.jsonl"),
      judgments + JSON.stringify({ id: "multi_news-test-100", docid: foreign, rating }) + "\n",
    );
    const ws = p("ws");
    /** `crux import run` of the test's run file into the workspace (`extra`: how to name it). */
    const importRun = (...extra: string[]) =>
      crux(["import", "run", "--workspace", ws, "--file", p("bm25.run"), ...extra]);
    /** `crux measure` of one stored run, relevance from the ratings, as JSON. */
    const measure = (run: string, measures: string, ...extra: string[]) =>
      crux([
        "measure",
        "--workspace",
        ws,
        "--run",
        run,
        "--relevance",
        "judgments",
        "-m",
        measures,
        ...extra,
        "--format",
        "json",
      ]);
    const imported = await crux([
      "import",
      "crux",
      "--workspace",
      ws,
      "--corpus",
      join(fixtures, "corpus.jsonl"),
      "--topics",
      join(fixtures, "topics.jsonl"),
      "--subquestions",
      join(fixtures, "subquestions.json"),
      "--judgments",
      p("judgments.jsonl"),
      "--rewrite",
      REWRITE,
      "--judge",
      "j",
    ]);
    assert.equal(imported.code, 0, imported.err);
    const runImport = await importRun("--rewrite", REWRITE);
    assert.equal(runImport.code, 0, runImport.err);
    assert.equal(runImport.out, "runs\t400\n");
    const w = await openWorkspace(ws, { readOnly: true });
    try {
      // The foreign passage is stored under its own topic's new id, rated under topic 100.
      const top = await w.query<{ topicId: string; docId: string }>(
        "SELECT topic_id, doc_id FROM runs WHERE run = 'bm25' AND rank = 1 AND topic_id = 'mnt-100'",
      );
      assert.deepEqual(top, [{ topicId: "mnt-100", docId: "mnt-107:0#0" }]);
      const rated = await w.query<{ topicId: string; n: number }>(
        "SELECT topic_id, count(*)::INTEGER AS n FROM ratings WHERE item_id = 'mnt-107:0#0' GROUP BY topic_id ORDER BY topic_id",
      );
      assert.deepEqual(rated.map((r) => [r.topicId, Number(r.n)]), [
        ["mnt-100", 15],
        ["mnt-107", 12],
      ]);
      const old = await w.query<{ n: number }>(
        "SELECT count(*)::INTEGER AS n FROM runs WHERE topic_id LIKE 'multi_news-%' OR doc_id LIKE 'multi_news-%'",
      );
      assert.equal(Number(old[0].n), 0);
    } finally {
      w.close();
    }
    const viaMeasure = await measure("bm25", MEASURES);
    assert.equal(viaMeasure.code, 0, viaMeasure.err);
    const viaEval = await crux([
      "eval",
      "--run",
      `${p("bm25.run")}=bm25`,
      "--judgments",
      p("judgments.jsonl"),
      "-m",
      MEASURES,
      "--format",
      "json",
    ]);
    assert.equal(viaEval.code, 0, viaEval.err);
    // The stored rows state their topic set.
    const stored = await openWorkspace(ws, { readOnly: true });
    try {
      const sets = await stored.query<{ measure: string; topicId: string; topicSet: string }>(
        `SELECT measure, topic_id, topic_set FROM measures WHERE run = 'bm25'
           AND (topic_id = 'all' OR topic_id = 'mnt-100') AND measure IN ('Cov@10', 'P@10')
         ORDER BY measure, topic_id`,
      );
      assert.deepEqual(sets.map((r) => [r.measure, r.topicId, r.topicSet]), [
        ["Cov@10", "all", "answerable(tau=3,n=20)"],
        ["Cov@10", "mnt-100", "topic(id=mnt-100)"],
        ["P@10", "all", "judged(n=20)"],
        ["P@10", "mnt-100", "topic(id=mnt-100)"],
      ]);
    } finally {
      stored.close();
    }
    const m = JSON.parse(viaMeasure.out);
    const e = JSON.parse(viaEval.out);
    assert.deepEqual(m.aggregate, e.aggregate);
    assert.equal(m.topics, 20);
    assert.equal(e.topics, 20);
    // The foreign passage at rank 1 is found with its rating under topic 100.
    const perTopic = await measure("bm25", "judged@1", "--per-query");
    assert.equal(perTopic.code, 0, perTopic.err);
    const judged = JSON.parse(perTopic.out).perQuery.find((r: { topicId: string }) =>
      r.topicId === "mnt-100"
    );
    assert.equal(judged?.value, 1, perTopic.out);
    // Without --rewrite the run names topics the workspace does not have.
    const plain = await importRun("--run", "plain");
    assert.equal(plain.code, 0, plain.err);
    const viaPlain = await measure("plain", "P@10");
    assert.equal(JSON.parse(viaPlain.out).topics, 5, viaPlain.err);
  },
});
