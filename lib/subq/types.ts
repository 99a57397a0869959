/**
 * Options and results shared by the sub-question steps.
 *
 * @module
 */
import type { LlmClient, ProgressFn } from "@lib/llm/mod.ts";

/** Backend options of every model step: without `client` the offline backend runs. */
export interface SubqStepOptions {
  /** Model client (cached, traced); omit it for the offline backend. */
  client?: LlmClient;
  /** Folder of replacement prompt templates. Default: the built-in ones. */
  templatesDir?: string;
  /** Re-asks (at temperature 0.2) after an unparseable answer. Default 2. */
  reasks?: number;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
}

/** How a model step ended for one item. */
export type StepStatus = "ok" | "unparsed" | "failed";

/** Backend names of the offline steps, as written into every output. */
export const OFFLINE_BACKENDS = {
  decompose: "noun-phrase templates (offline)",
  classify: "type heuristic (offline)",
  coverage: "lexical coverage (offline)",
  pairwise: "weighted coverage (offline)",
} as const;
