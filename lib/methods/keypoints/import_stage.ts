// The key point file import of the keypoints stages.
import { storeKeyPoints } from "@lib/keypoints/mod.ts";
import { clearKeyPointSource, readTopicIds } from "@lib/store/mod.ts";
import { readKeyPoints } from "@lib/formats/mod.ts";
import type { MethodStageContext } from "@lib/pipeline/mod.ts";
import type { StageSpec } from "@lib/pipeline/mod.ts";

function modified(file: string, configFile: string): string | null {
  try {
    return Deno.statSync(file).mtime?.toISOString() ?? null;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    throw new Deno.errors.NotFound(
      `${configFile}: keypoints.file: cannot find "${file}"; give a key point file (JSONL)`,
    );
  }
}

export function importStage(file: string, source: string, ctx: MethodStageContext): StageSpec {
  return {
    id: "judge:keypoints/import",
    stage: "judge",
    version: 1,
    params: { file, modified: modified(file, ctx.configFile) },
    deps: [...ctx.dataStages],
    clear: async (ws) => {
      await clearKeyPointSource(ws, source);
    },
    run: async (ws) => {
      let dropped = 0;
      const points = await readKeyPoints(file, { onDuplicates: (n) => dropped = n });
      const topics = await readTopicIds(ws);
      const unknown = points.filter((q) => !topics.has(q.qid)).map((q) => q.qid);
      if (unknown.length) {
        ctx.onNote?.(
          "judge",
          `keypoints: ${file} has questions that are no topic: ${unknown.join(", ")}`,
        );
      }
      const n = await storeKeyPoints(ws, points, { level: "merged", source });
      const repeats = dropped ? ` (${dropped} identical repeated lines dropped)` : "";
      return `${n} key points of ${points.length} questions from ${file}${repeats}`;
    },
  };
}
