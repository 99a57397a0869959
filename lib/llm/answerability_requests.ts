// The chat requests of the answerability judge, shared by online judging and batch export.

import { loadTemplate } from "./load_template.ts";
import { renderTemplate } from "./render_template.ts";
import type { AnswerabilityPair, ChatRequest } from "./types.ts";

/**
 * Renders the answerability template for each pair: the requests the
 * model-based judge sends, and that batch export writes.
 *
 * @param pairs Pairs to judge.
 * @param opts `templatesDir` (replacement templates, default none), `template` (id, default
 *   `answerability`).
 * @returns One request per pair, `id` = pair id.
 * @throws {Deno.errors.NotFound | SyntaxError} When the template is missing or malformed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const reqs = await answerabilityRequests([{ id: "1", question: "Who?", context: "Ann." }]);
 * assert.equal(reqs[0].template, "answerability@2");
 * ```
 */
export async function answerabilityRequests(
  pairs: readonly AnswerabilityPair[],
  opts: { templatesDir?: string; template?: string } = {},
): Promise<ChatRequest[]> {
  const template = await loadTemplate(opts.template ?? "answerability", { dir: opts.templatesDir });
  return pairs.map((p) =>
    renderTemplate(template, { question: p.question, context: p.context }, { id: p.id })
  );
}
