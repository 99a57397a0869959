/**
 * Model-based entailment of key points by responses (and of statements by documents).
 *
 * @module
 */
import type { LlmClient } from "@lib/llm/mod.ts";
import { askAll, type LlmBackendOptions, outcome } from "./_llm_requests.ts";
import { parseEntailment } from "./parse_entailment.ts";
import type { EntailmentJudge, EntailmentResult } from "./types.ts";

/** Options of {@linkcode llmEntailer}. */
export interface LlmEntailerOptions extends LlmBackendOptions {
  /**
   * `entail` (default): does the response state the key point (`keypoint_entail`);
   * `support`: do the documents support the response's statement (`keypoint_support`).
   */
  task?: "entail" | "support";
  /**
   * Offer `contradicts` as a fourth, separate label (template
   * `keypoint_entail_contradiction`, or `keypoint_support_contradiction`).
   * Default false: Long2RAG's yes / no / neutral, where `no` means "does not
   * entail".
   */
  contradiction?: boolean;
}

/**
 * The model-based entailment judge (greedy decoding, temperature 0): a label
 * yes / no / neutral with Long2RAG's meanings (`no` = does not entail; with
 * `contradiction`, `contradicts` as a separate label) with a short reason and
 * snippet per pair. Unparseable
 * answers are re-asked `reasks` times, then recorded `unparsed` with the raw
 * text and no label; failed calls are `failed`. Neither counts as covered.
 *
 * @param client The judge role's client.
 * @param opts `task` (`entail`), `contradiction` (false), `templatesDir`, `reasks` (2).
 * @returns A judge.
 * @example
 * ```ts
 * import { llmEntailer } from "@lib/keypoints/mod.ts";
 * import { LlmClient } from "@lib/llm/mod.ts";
 * const client = new LlmClient({ baseUrl: "http://localhost:8000/v1", model: "m" });
 * const [r] = await llmEntailer(client).judge([{ id: "1", keypoint: "It opened in 1932.", response: "..." }]);
 * ```
 */
export function llmEntailer(client: LlmClient, opts: LlmEntailerOptions = {}): EntailmentJudge {
  const support = opts.task === "support";
  return {
    name: client.model,
    async judge(pairs, { signal, onProgress } = {}) {
      const records = await askAll(
        client,
        (support ? "keypoint_support" : "keypoint_entail") +
          (opts.contradiction ? "_contradiction" : ""),
        pairs.map((p): { id: string; values: Record<string, string> } => ({
          id: p.id,
          values: support
            ? { statement: p.keypoint, documents: p.response }
            : { keypoint: p.keypoint, response: p.response },
        })),
        (text) => parseEntailment(text, { contradiction: opts.contradiction }),
        {
          ...opts,
          signal,
          onProgress,
          step: support ? "statement support" : "keypoint entailment",
        },
      );
      return records.map((rec, i): EntailmentResult => {
        const o = outcome(rec);
        const id = pairs[i].id;
        if (o.status !== "ok") {
          return {
            id,
            label: null,
            status: o.status,
            reason: o.error ?? "",
            snippet: "",
            raw: o.raw,
          };
        }
        return { id, status: "ok", ...o.value! };
      });
    },
  };
}
