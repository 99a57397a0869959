/**
 * Responses for the key point protocol (Long2RAG): all documents concatenated
 * with separators and an instruction to use as many of their important points
 * as possible.
 *
 * @module
 */
import { countTokens } from "@lib/text/mod.ts";
import { extractiveGenerator, type LlmClient, loadTemplate, renderTemplate } from "@lib/llm/mod.ts";
import { DOCUMENT_SEPARATOR } from "./check_statements.ts";
import type { BackendCallOptions } from "./types.ts";

/** A question, the run name to give the response, and the documents it may use. */
export interface ResponseRequest {
  qid: string;
  runId: string;
  question: string;
  documents: readonly string[];
}

/**
 * Length of an offline response in Llama-3.1 tokens when no budget is given:
 * the mean length of Long2RAG's GPT-4o answers (about 940 tokens).
 */
const OFFLINE_LENGTH = 940;

/** A generated response. */
export interface GeneratedResponse {
  qid: string;
  runId: string;
  text: string;
  tokens: number;
  status: "ok" | "failed";
  /** `offline-extractive` or the model name. */
  backend: string;
  error?: string;
}

/**
 * Writes one response per request. With a client: the `keypoint_response`
 * template (documents joined by lines of `=====`, the instruction to use as
 * many important points as possible), cached like every call, with no length
 * cap unless `maxTokens` is given (Long2RAG sets no short cap; its GPT-4o
 * answers average about 940 tokens and KPR rises with length). Without one,
 * offline (labelled `offline-extractive`): the documents' sentences in order
 * up to `maxTokens` Llama-3.1 tokens (default 940, the paper's mean length).
 *
 * @param requests The requests.
 * @param client The generator role's client, or undefined for the offline backend.
 * @param opts `maxTokens` (default: none online, 940 offline), `templatesDir`, signal and progress.
 * @returns One response per request, in order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateResponses } from "@lib/keypoints/mod.ts";
 * const [r] = await generateResponses([{ qid: "q", runId: "long2rag", question: "Why?", documents: ["Because it rained."] }], undefined);
 * assert.equal(r.text, "Because it rained.");
 * ```
 */
export async function generateResponses(
  requests: readonly ResponseRequest[],
  client: LlmClient | undefined,
  opts: BackendCallOptions & { maxTokens?: number; templatesDir?: string } = {},
): Promise<GeneratedResponse[]> {
  const maxTokens = opts.maxTokens;
  if (!client) {
    const g = extractiveGenerator();
    return await Promise.all(requests.map(async (r) => {
      const out = await g.generate({
        request: r.question,
        contexts: r.documents,
        maxTokens: maxTokens ?? OFFLINE_LENGTH,
      });
      return {
        qid: r.qid,
        runId: r.runId,
        text: out.text,
        tokens: out.tokens,
        status: out.status,
        backend: "offline-extractive",
      };
    }));
  }
  const t = await loadTemplate("keypoint_response", { dir: opts.templatesDir });
  const records = await client.chatMany(
    requests.map((r) =>
      renderTemplate(
        t,
        { question: r.question, documents: r.documents.join(DOCUMENT_SEPARATOR) },
        { id: `${r.qid}`, ...(maxTokens !== undefined ? { params: { maxTokens } } : {}) },
      )
    ),
    { signal: opts.signal, onProgress: opts.onProgress, step: "keypoint responses" },
  );
  return records.map((rec, i) => ({
    qid: requests[i].qid,
    runId: requests[i].runId,
    text: rec.text,
    tokens: rec.status === "ok" ? countTokens(rec.text) : 0,
    status: rec.status,
    backend: client.model,
    ...(rec.error !== undefined ? { error: rec.error } : {}),
  }));
}
