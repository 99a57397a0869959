import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { constructCommand } from "./construct.ts";
import { generateCommand } from "./generate.ts";
import { judgeReportsCommand } from "./judge_reports.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { tinyWorkspaceDir } from "../../../tests/pipeline/_tiny.ts";

const judge = { ...judgeReportsCommand, name: "judge" }; // stands in for `crux judge reports`

const run = async (args: string[]) => {
  const io = memoryIo();
  const code = await main(args, io, [constructCommand, generateCommand, judge]);
  return { code, out: io.stdout(), err: io.stderr() };
};

Deno.test("crux generate: usage errors", async () => {
  assert.match(
    (await run(["generate", "--run", "x", "--direct"])).err,
    /--workspace DIR is required/,
  );
  const both = await run(["generate", "--workspace", "w", "--run", "x", "--direct", "--oracle"]);
  assert.equal(both.code, 2);
  assert.match(both.err, /exactly one of --context RUN, --direct or --oracle/);
  assert.match(
    (await run(["generate", "--workspace", "w", "--run", "oracle-result", "--oracle"])).err,
    /reserved/,
  );
});

Deno.test("crux generate + crux judge reports offline: stored reports and coverage table", async () => {
  const dir = await tinyWorkspaceDir();
  try {
    assert.equal((await run(["construct", "all", "--workspace", dir, "--n", "4"])).code, 0);
    const none = await run(["generate", "--workspace", dir, "--run", "g", "--context", "bm25"]);
    assert.equal(none.code, 1);
    assert.match(none.err, /no run "bm25"; import or retrieve it first/);

    // A hand-made run: for each topic, its second passage first.
    const ws = await openWorkspace(dir);
    await ws.upsert("runs", [
      { run: "hand", topicId: "tiny-1", docId: "tiny-1:1#1", rank: 1, score: 2 },
      { run: "hand", topicId: "tiny-1", docId: "tiny-1:0#0", rank: 2, score: 1 },
      { run: "hand", topicId: "tiny-2", docId: "tiny-2:1#1", rank: 1, score: 2 },
      { run: "hand", topicId: "tiny-2", docId: "tiny-2:0#0", rank: 2, score: 1 },
    ]);
    const k = await ws.query<{ topicId: string; k: number }>(
      "SELECT topic_id, CAST(count(*) AS INTEGER) AS k FROM qrels WHERE name = 'crux_pr' AND grade = 3 GROUP BY ALL ORDER BY 1",
    );
    ws.close();

    const g = await run(["generate", "--workspace", dir, "--run", "hand-ext", "--context", "hand"]);
    assert.equal(g.code, 0, g.err);
    assert.match(
      g.out,
      /2 rag reports by extractive stored as run "hand-ext", 0 already there; 2 human summaries/,
    );
    const again = await run([
      "generate",
      "--workspace",
      dir,
      "--run",
      "hand-ext",
      "--context",
      "hand",
    ]);
    assert.match(
      again.out,
      /0 rag reports by extractive stored as run "hand-ext", 2 already there/,
    );

    const ws2 = await openWorkspace(dir);
    const gens = await ws2.generations({ run: "hand-ext" });
    ws2.close();
    for (const gen of gens) {
      const expected = gen.topicId === "tiny-1"
        ? ["tiny-1:1#1", "tiny-1:0#0"]
        : ["tiny-2:1#1", "tiny-2:0#0"];
      assert.deepEqual(
        gen.contextIds,
        expected.slice(0, k.find((x) => x.topicId === gen.topicId)!.k),
      );
    }

    const j = await run(["judge", "--workspace", dir]);
    assert.equal(j.code, 0, j.err);
    const lines = j.out.trim().split("\n").map((l) => l.split("\t"));
    assert.deepEqual(lines[0], [
      "run",
      "topics",
      "Cov_report",
      "Den_report",
      "Cov_context",
      "Den_context",
    ]);
    assert.deepEqual(lines.slice(1).map((l) => [l[0], l[1]]), [["hand-ext", "2"], [
      "oracle-result",
      "2",
    ]]);
    assert.equal(lines[2][4], "-", "the human summary has no retrieval context");
    assert.match(j.err, /new ratings by lexical/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
