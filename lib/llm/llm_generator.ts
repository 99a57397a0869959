// The model-based report generator: the RAG or direct-prompting template under the token budget.

import { countTokens } from "@lib/text/mod.ts";
import type { LlmClient } from "./llm_client.ts";
import { loadTemplate } from "./load_template.ts";
import { renderTemplate } from "./render_template.ts";
import type { GenerationInput, GenerationOutput, Generator } from "./types.ts";

/**
 * The model-based generator: `rag_report` with numbered contexts, or
 * `direct_report` when there are no contexts (no-retrieval condition); the
 * token budget is both stated in the prompt and sent as `max_tokens`.
 *
 * @param client Client of the `generator` role (its model is the backend name).
 * @param opts `templatesDir`: folder of replacement templates (default none).
 * @returns A generator.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { type LlmClient, llmGenerator } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * const request = "Report on the race.";
 * const top = [
 *   { id: "t1:0#0", text: "Ann won the race." },
 *   { id: "t1:0#1", text: "Bob came second." },
 * ];
 * const budget = 400;
 * const gen = llmGenerator(client);
 * const out = await gen.generate({ request, contexts: top.map((p) => p.text), maxTokens: budget });
 * ```
 */
export function llmGenerator(client: LlmClient, opts: { templatesDir?: string } = {}): Generator {
  return {
    name: client.model,
    async generate(input: GenerationInput, { signal } = {}): Promise<GenerationOutput> {
      const direct = input.contexts.length === 0;
      const template = await loadTemplate(direct ? "direct_report" : "rag_report", {
        dir: opts.templatesDir,
      });
      const values: Record<string, string | number> = {
        request: input.request,
        budget: input.maxTokens,
      };
      if (!direct) values.context = input.contexts.map((c, i) => `[${i + 1}] ${c}`).join("\n\n");
      const request = renderTemplate(template, values, { params: { maxTokens: input.maxTokens } });
      const rec = await client.chat(request, { signal, step: template.id });
      if (rec.status === "failed") {
        return { text: "", tokens: 0, status: "failed", backend: client.model, error: rec.error };
      }
      const text = rec.text.trim();
      return { text, tokens: countTokens(text), status: "ok", backend: client.model };
    },
  };
}
