// Fills a template's placeholders into a chat request carrying the template's `id@version`.

import type { PromptTemplate } from "./parse_template.ts";
import type { ChatRequest, SamplingParams } from "./types.ts";

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * Fills a template's placeholders and returns a chat request carrying the
 * template's parameters and `id@version`. Substitution is one pass, so a value
 * containing `{{x}}` is inserted literally. Pure.
 *
 * @param template A loaded template.
 * @param values One value per declared placeholder (numbers are formatted with `String`).
 * @param opts `params` override the template's parameters field by field; `id` is echoed
 *   in the call record.
 * @returns The request.
 * @throws {TypeError} When a placeholder has no value or a value names no placeholder.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadTemplate, renderTemplate } from "@lib/llm/mod.ts";
 * const tpl = await loadTemplate("answerability");
 * const req = renderTemplate(tpl, { question: "Who won?", context: "Ann won." });
 * assert.equal(req.template, "answerability@2");
 * ```
 */
export function renderTemplate(
  template: PromptTemplate,
  values: Readonly<Record<string, string | number>>,
  opts: { params?: SamplingParams; id?: string } = {},
): ChatRequest {
  const missing = template.placeholders.filter((p) => values[p] === undefined);
  if (missing.length) {
    throw new TypeError(
      `Cannot render template ${template.ref}: no value for ${
        missing.map((m) => `"${m}"`).join(", ")
      }; pass every declared placeholder`,
    );
  }
  const unknown = Object.keys(values).filter((k) => !template.placeholders.includes(k));
  if (unknown.length) {
    throw new TypeError(
      `Cannot render template ${template.ref}: unknown placeholder ${
        unknown.map((u) => `"${u}"`).join(", ")
      }; it declares ${template.placeholders.join(", ")}`,
    );
  }
  const messages = template.messages.map((m) => ({
    role: m.role,
    content: m.content.replace(PLACEHOLDER, (_, name: string) => String(values[name])),
  }));
  const request: ChatRequest = {
    messages,
    params: { ...template.params, ...opts.params },
    template: template.ref,
  };
  if (opts.id !== undefined) request.id = opts.id;
  return request;
}
