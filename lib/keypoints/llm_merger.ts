/**
 * Model-based merging of key points across a question's documents.
 *
 * @module
 */
import type { LlmClient } from "@lib/llm/mod.ts";
import { askAll, type LlmBackendOptions, outcome } from "./_llm_requests.ts";
import { parseMerge } from "./parse_merge.ts";
import type { KeyPointMerger, MergeResult } from "./types.ts";

/**
 * The model-based merger: renders `keypoint_merge` with the question's points
 * numbered from 1 and reads the merged points with their sources. A map that
 * does not cover every original exactly once is unparseable and re-asked
 * (`reasks`, at temperature 0.2); when it stays so, or the call fails, the
 * question keeps its originals unmerged (one group each) with status
 * `unparsed` or `failed` and the raw text, so nothing is lost. Questions with
 * fewer than two points are not sent.
 *
 * @param client The judge role's client.
 * @param opts `templatesDir`, `reasks` (2).
 * @returns A merger.
 * @example
 * ```ts
 * import { llmMerger } from "@lib/keypoints/mod.ts";
 * import { LlmClient } from "@lib/llm/mod.ts";
 * const client = new LlmClient({ baseUrl: "http://localhost:8000/v1", model: "m" });
 * const [r] = await llmMerger(client).merge([{ id: "q1", question: "Q?", points: ["A", "A again"] }]);
 * ```
 */
export function llmMerger(client: LlmClient, opts: LlmBackendOptions = {}): KeyPointMerger {
  return {
    name: client.model,
    async merge(inputs, { signal, onProgress } = {}) {
      const sent = inputs.filter((m) => m.points.length > 1);
      const records = await Promise.all(sent.map((m) =>
        askAll(
          client,
          "keypoint_merge",
          [{
            id: m.id,
            values: {
              question: m.question,
              points: m.points.map((p, i) => `${i + 1}. ${p}`).join("\n"),
            },
          }],
          (text) => parseMerge(text, m.points.length),
          { ...opts, signal, onProgress, step: "keypoint merging" },
        ).then((r) => r[0])
      ));
      const byId = new Map(sent.map((m, i) => [m.id, records[i]]));
      return inputs.map((m): MergeResult => {
        const single = m.points.map((text, i) => ({ text, sources: [i] }));
        const rec = byId.get(m.id);
        if (!rec) return { id: m.id, groups: single, status: "ok" };
        const o = outcome(rec);
        return o.status === "ok"
          ? { id: m.id, groups: o.value!, status: "ok" }
          : { id: m.id, groups: single, status: o.status, raw: o.raw, error: o.error };
      });
    },
  };
}
