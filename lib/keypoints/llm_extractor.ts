/**
 * Model-based key point extraction (Long2RAG protocol) with rounds.
 *
 * @module
 */
import type { LlmClient } from "@lib/llm/mod.ts";
import { askAll, type LlmBackendOptions, outcome } from "./_llm_requests.ts";
import { parseExtraction } from "./parse_extraction.ts";
import {
  DEFAULT_EXTRACTION_ROUNDS,
  type ExtractionResult,
  type KeyPointExtractor,
} from "./types.ts";

/**
 * The model-based extractor: renders `keypoint_extract` (question, document,
 * points found so far) for every pair and reads a JSON list of points with
 * their verbatim spans. Round 1 asks for the key points; each further round
 * (up to `rounds`, default 2) asks again with the points found so far listed, for pairs
 * whose previous round added points; an empty list ends a pair's rounds.
 * Unparseable answers are re-asked `reasks` times at temperature 0.2; then the
 * pair is `unparsed` (round 1) or keeps the points found so far (later rounds),
 * with the raw text. A call failing after the client's retries is `failed`.
 * Every call is cached, so a re-run makes no calls.
 *
 * @param client The judge role's client (its model is the backend name).
 * @param opts `templatesDir`, `reasks` (2).
 * @returns An extractor.
 * @example
 * ```ts
 * import { llmExtractor } from "@lib/keypoints/mod.ts";
 * import { LlmClient } from "@lib/llm/mod.ts";
 * const client = new LlmClient({ baseUrl: "http://localhost:8000/v1", model: "m" });
 * const results = await llmExtractor(client).extract([{ id: "1", question: "Q?", document: "D." }], { rounds: 2 });
 * ```
 */
export function llmExtractor(client: LlmClient, opts: LlmBackendOptions = {}): KeyPointExtractor {
  return {
    name: client.model,
    async extract(inputs, { rounds = DEFAULT_EXTRACTION_ROUNDS, signal, onProgress } = {}) {
      const results: ExtractionResult[] = inputs.map((i) => ({
        id: i.id,
        points: [],
        status: "ok",
        rounds: 0,
      }));
      let active = inputs.map((_, i) => i);
      for (let round = 1; round <= rounds && active.length; round++) {
        const records = await askAll(
          client,
          "keypoint_extract",
          active.map((i) => ({
            id: inputs[i].id,
            values: {
              question: inputs[i].question,
              document: inputs[i].document,
              found: results[i].points.length
                ? results[i].points.map((p, n) => `${n + 1}. ${p.text}`).join("\n")
                : "(none yet)",
            },
          })),
          parseExtraction,
          { ...opts, signal, onProgress, step: `keypoint extraction, round ${round}` },
        );
        const next: number[] = [];
        records.forEach((rec, n) => {
          const i = active[n];
          const r = results[i];
          const o = outcome(rec);
          r.rounds = round;
          if (o.status !== "ok") {
            if (round === 1) r.status = o.status;
            r.raw = o.raw;
            r.error = `round ${round}: ${o.error}`;
            return;
          }
          const known = new Set(r.points.map((p) => p.text.toLowerCase()));
          const fresh = o.value!.filter((p) => !known.has(p.text.toLowerCase()));
          r.points.push(...fresh.map((p) => ({ ...p, round })));
          if (fresh.length) next.push(i);
        });
        active = next;
      }
      return results;
    },
  };
}
