/**
 * The model backend of the nugget steps: any OpenAI-compatible endpoint
 * through the LLM layer (cache, trace, retries, bounded concurrency).
 *
 * @module
 */
import {
  type CallRecord,
  type LlmClient,
  loadTemplate,
  type ParseResult,
  renderTemplate,
} from "@lib/llm/mod.ts";
import type { NuggetBackend, WindowCallOptions, WindowOutcome } from "./types.ts";
import { parseNuggetList, parseWindowLabels } from "./_parse_window.ts";

/** Options of {@linkcode llmNuggetBackend}. */
export interface LlmNuggetBackendOptions {
  /** Folder with replacement `nugget_*.vN.prompt` templates. Default: the built-in ones. */
  templatesDir?: string;
  /** Re-asks at temperature 0.2 after an unreadable output (wrong label count included). Default 2. */
  reasks?: number;
}

const IMPORTANCE = ["vital", "okay"] as const;
const ASSIGNMENT = ["support", "partial_support", "not_support"] as const;

function outcome<T>(rec: CallRecord<T>): WindowOutcome<T> {
  if (rec.status === "failed") {
    return { status: "failed", raw: rec.text, call: rec.key, reason: rec.error ?? "call failed" };
  }
  const p = rec.parsed as ParseResult<T>;
  return p.ok
    ? { status: "ok", value: p.value, raw: rec.text, call: rec.key }
    : { status: "failed", raw: p.raw, call: rec.key, reason: p.reason };
}

/**
 * A nugget backend that asks a model: creation with `nugget_create`, importance
 * with `nugget_importance` and assignment with `nugget_assign` (templates in
 * `lib/prompts`, replaceable). Outputs are JSON lists; one that cannot be read
 * (or has the wrong number of labels and names no nuggets to align on) is
 * re-asked `reasks` times at temperature 0.2 and then reported `failed` with
 * its raw text. Its name is the client's model.
 *
 * @param client The judge role's client.
 * @param opts Templates folder and re-asks.
 * @returns The backend.
 * @example
 * ```ts
 * import { LlmClient } from "@lib/llm/mod.ts";
 * import { llmNuggetBackend } from "@lib/nuggets/mod.ts";
 * const client = new LlmClient({ baseUrl: "http://localhost:8000/v1", model: "judge-m" });
 * llmNuggetBackend(client).name; // "judge-m"
 * ```
 */
export function llmNuggetBackend(
  client: LlmClient,
  opts: LlmNuggetBackendOptions = {},
): NuggetBackend {
  const reasks = opts.reasks ?? 2;
  const dir = opts.templatesDir;
  const json = (xs: readonly string[]) => JSON.stringify(xs, null, 1);
  return {
    name: client.model,
    judge: client.model,
    offline: false,
    async create(w, o: WindowCallOptions = {}) {
      const tpl = await loadTemplate("nugget_create", { dir });
      const passages = w.passages.map((p, i) => `[${i + 1}] ${p}`).join("\n\n");
      const rec = await client.chat(
        renderTemplate(tpl, {
          query: w.query,
          nuggets: json(w.nuggets),
          passages,
          max_nuggets: w.maxNuggets,
        }),
        {
          parse: (t) => parseNuggetList(t, w.maxNuggets),
          reasks,
          step: "nugget creation",
          ...o,
        },
      );
      return outcome(rec);
    },
    async label(windows, o: WindowCallOptions = {}) {
      const tpl = await loadTemplate("nugget_importance", { dir });
      const recs = await Promise.all(
        windows.map((w) =>
          client.chat(renderTemplate(tpl, { query: w.query, nuggets: json(w.nuggets) }), {
            parse: (t) => parseWindowLabels(t, IMPORTANCE, w.nuggets),
            reasks,
            signal: o.signal,
          })
        ),
      );
      return recs.map(outcome);
    },
    async assign(windows, o: WindowCallOptions = {}) {
      const tpl = await loadTemplate("nugget_assign", { dir });
      const recs = await Promise.all(windows.map((w) =>
        client.chat(
          renderTemplate(tpl, { query: w.query, answer: w.answer, nuggets: json(w.nuggets) }),
          { parse: (t) => parseWindowLabels(t, ASSIGNMENT, w.nuggets), reasks, signal: o.signal },
        )
      ));
      return recs.map(outcome);
    },
  };
}
