/**
 * Reading key points from the workspace.
 *
 * @module
 */
import type { KeyPoint, QuestionKeyPoints } from "@lib/formats/mod.ts";
import { readKeypointRows, readKeypointSources, type WorkspaceLike } from "@lib/store/mod.ts";

/**
 * Reads the key points of one level and source from the workspace table
 * `keypoints`, per topic (topics in natural id order, points in id order).
 *
 * @param ws The workspace.
 * @param opts `level` (`original` or `merged`); `source` (default: the only
 *   source of that level).
 * @returns Key points per question, plus the source read.
 * @throws {RangeError} When several sources exist and none is named.
 * @example
 * ```ts
 * import { readStoredKeyPoints } from "@lib/keypoints/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const { keypoints, source } = await readStoredKeyPoints(ws, { level: "merged" });
 * ```
 */
export async function readStoredKeyPoints(
  ws: WorkspaceLike,
  opts: { level: "original" | "merged"; source?: string },
): Promise<{ keypoints: QuestionKeyPoints[]; source: string | undefined }> {
  let source = opts.source;
  if (source === undefined) {
    const sources = await readKeypointSources(ws, opts.level);
    if (sources.length > 1) {
      throw new RangeError(
        `The workspace has ${opts.level} key points from ${sources.join(", ")}; name one as source`,
      );
    }
    source = sources[0];
  }
  const rows = await readKeypointRows(ws, opts.level, source ?? "");
  const natural = new Intl.Collator("en", { numeric: true });
  rows.sort((a, b) =>
    natural.compare(a.topicId, b.topicId) || natural.compare(a.keypointId, b.keypointId)
  );
  const out = new Map<string, KeyPoint[]>();
  for (const r of rows) {
    if (!out.has(r.topicId)) out.set(r.topicId, []);
    out.get(r.topicId)!.push({
      id: r.keypointId,
      text: r.text,
      ...(r.docId !== null ? { docId: r.docId } : {}),
      spans: [...r.spans],
      mergedFrom: [...r.mergedFrom],
      ...(r.spanStatus ? { spanStatus: [...r.spanStatus] } : {}),
    });
  }
  return { keypoints: [...out].map(([qid, keypoints]) => ({ qid, keypoints })), source };
}
