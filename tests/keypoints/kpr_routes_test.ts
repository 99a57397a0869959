// One KPR rule for both routes: the same key points and labels give the same
// stored KPR rows through `crux keypoints score --workspace` and through the
// pipeline's measure stage, including a question with an unlabelled key point.
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { keypointsCommand } from "@lib/cli/commands/keypoints.ts";
import { storeKeyPoints } from "@lib/keypoints/mod.ts";
import { measureKeyPoints } from "@lib/methods/keypoints/work.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";

const jsonl = (...xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";
const POINTS = [
  { qid: "q1", keypoints: ["k1", "k2"] },
  { qid: "q2", keypoints: ["m1", "m2", "m3", "m4"] },
];
// Run a labels everything; run b leaves m4 of q2 without a label; run c has no
// label at all on q2 (the case the two routes once scored 0.5 and 1.0).
const LABELS: [string, string, string, string][] = [
  ["a", "q1", "k1", "yes"],
  ["a", "q1", "k2", "no"],
  ["a", "q2", "m1", "yes"],
  ["a", "q2", "m2", "yes"],
  ["a", "q2", "m3", "yes"],
  ["a", "q2", "m4", "no"],
  ["b", "q1", "k1", "yes"],
  ["b", "q1", "k2", "yes"],
  ["b", "q2", "m1", "yes"],
  ["b", "q2", "m2", "no"],
  ["b", "q2", "m3", "yes"],
  ["c", "q1", "k1", "yes"],
  ["c", "q1", "k2", "yes"],
];

async function kprRows(ws: Workspace) {
  return await ws.query<{ run: string; topicId: string; value: number }>(
    `SELECT run, topic_id, value FROM measures WHERE measure = 'KPR' ORDER BY run, topic_id`,
  );
}

Deno.test("crux keypoints score and the pipeline's measure stage store the same KPR", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-kpr-" });
  try {
    // The command line route: files in, rows stored.
    const points = join(dir, "keypoints.jsonl");
    await Deno.writeTextFile(
      points,
      jsonl(...POINTS.map((q) => ({
        qid: q.qid,
        keypoints: q.keypoints.map((id) => ({ id, text: id, spans: [], merged_from: [] })),
      }))),
    );
    const ent = join(dir, "entailments.jsonl");
    const lines = new Map<string, { keypoint_id: string; label: string }[]>();
    for (const [run, qid, k, label] of LABELS) {
      const key = `${run}\t${qid}`;
      lines.set(key, [...(lines.get(key) ?? []), { keypoint_id: k, label }]);
    }
    await Deno.writeTextFile(
      ent,
      jsonl(...[...lines].map(([key, labels]) => {
        const [run_id, qid] = key.split("\t");
        return { qid, run_id, labels };
      })),
    );
    const io = memoryIo();
    const cliDir = join(dir, "cli");
    const code = await main(
      [
        "keypoints",
        "score",
        "--keypoints",
        points,
        "--entailments",
        ent,
        "--workspace",
        cliDir,
        "--judge",
        "j",
      ],
      io,
      [keypointsCommand],
    );
    assert.equal(code, 0, io.stderr());
    const cliWs = await openWorkspace(cliDir);
    const viaCli = await kprRows(cliWs);
    cliWs.close();

    // The pipeline route: the same key points and labels stored, then the measure stage.
    const ws = await openWorkspace(join(dir, "pipeline"));
    try {
      const source = "file:keypoints.jsonl";
      await storeKeyPoints(
        ws,
        POINTS.map((q) => ({
          qid: q.qid,
          keypoints: q.keypoints.map((id) => ({ id, text: id, spans: [], mergedFrom: [] })),
        })),
        { level: "merged", source },
      );
      await ws.upsert(
        "keypoint_labels",
        LABELS.map(([run, topicId, keypointId, label]) => ({
          run,
          topicId,
          keypointId,
          label,
          status: "ok",
          judge: "j",
          source,
        })),
      );
      await measureKeyPoints(ws, { runs: ["a", "b", "c"], source, judge: "j" });
      const viaPipeline = await kprRows(ws);
      // By hand: a: q1 1/2, q2 3/4, mean 0.625; b: q1 2/2, q2 has m4 unlabelled (no value,
      // and no mean for b); c: q1 2/2, q2 unlabelled (no mean: neither 0.5 nor 1.0).
      const want = [
        { run: "a", topicId: "all", value: 0.625 },
        { run: "a", topicId: "q1", value: 0.5 },
        { run: "a", topicId: "q2", value: 0.75 },
        { run: "b", topicId: "q1", value: 1 },
        { run: "c", topicId: "q1", value: 1 },
      ];
      assert.deepEqual(viaPipeline, want);
      assert.deepEqual(viaCli, want);
    } finally {
      ws.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
