/**
 * Writing key points into the workspace.
 *
 * @module
 */
import type { QuestionKeyPoints } from "@lib/formats/mod.ts";
import { type WorkspaceLike, writeKeypointRows } from "@lib/store/mod.ts";

/**
 * Stores key points in the workspace table `keypoints` (topic id = qid),
 * replacing rows of the same (topic, id, level, source).
 *
 * @param ws The workspace.
 * @param keypoints Key points per question.
 * @param opts `level` (`original` or `merged`), `source` (key point origin), `rounds`
 *   (qid -> id -> extraction round, originals only).
 * @returns Rows written.
 * @example
 * ```ts
 * import { storeKeyPoints } from "@lib/keypoints/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await storeKeyPoints(ws, [{ qid: "t1", keypoints: [{ id: "k1", text: "A.", spans: [], mergedFrom: [] }] }],
 *   { level: "merged", source: "file:kp.jsonl" });
 * ```
 */
export async function storeKeyPoints(
  ws: WorkspaceLike,
  keypoints: readonly QuestionKeyPoints[],
  opts: {
    level: "original" | "merged";
    source: string;
    rounds?: ReadonlyMap<string, ReadonlyMap<string, number>>;
  },
): Promise<number> {
  const rows = keypoints.flatMap((q) =>
    q.keypoints.map((k) => ({
      topicId: q.qid,
      keypointId: k.id,
      level: opts.level,
      text: k.text,
      docId: k.docId ?? null,
      spans: k.spans,
      spanStatus: k.spanStatus ?? null,
      mergedFrom: k.mergedFrom,
      round: opts.rounds?.get(q.qid)?.get(k.id) ?? null,
      source: opts.source,
    }))
  );
  await writeKeypointRows(ws, rows);
  return rows.length;
}
