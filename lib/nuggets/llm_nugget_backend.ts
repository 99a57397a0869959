/**
 * The model backend of the nugget steps: any OpenAI-compatible endpoint
 * through the LLM layer (cache, trace, retries, bounded concurrency).
 *
 * @module
 */
import {
  type CallRecord,
  type ChatRequest,
  type LlmClient,
  loadTemplate,
  parseJsonValue,
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

/**
 * Sends the requests in one batch, reads each answer with its own parser, and
 * re-asks the unreadable ones (wrong label counts included) in further batches
 * at temperature 0.2 with seed + i, as the client's own re-asks would, up to
 * `reasks` times; then reports them failed with the raw text.
 */
async function askAll<T>(
  client: LlmClient,
  requests: readonly ChatRequest[],
  parsers: readonly ((text: string) => ParseResult<T>)[],
  opts: { reasks: number; step: string } & WindowCallOptions,
): Promise<WindowOutcome<T>[]> {
  const out: WindowOutcome<T>[] = new Array(requests.length);
  let todo = requests.map((_, i) => i);
  for (let round = 0; round <= opts.reasks && todo.length; round++) {
    const batch = todo.map((i) => {
      const r = requests[i];
      return round === 0 ? r : {
        ...r,
        params: { ...r.params, temperature: 0.2, seed: (r.params?.seed ?? 0) + round },
      };
    });
    const recs = await client.chatMany(batch, {
      parse: (t) =>
        parseJsonValue(t, "array").ok ? { ok: true, value: t } : parseJsonValue(t, "object"),
      step: round === 0 ? opts.step : `${opts.step} (re-ask ${round})`,
      // Cached unparsed answers lead to the cached re-asks; only the last is asked again.
      keepUnparsed: round < opts.reasks,
      onProgress: opts.onProgress,
      signal: opts.signal,
    });
    const again: number[] = [];
    recs.forEach((rec: CallRecord<unknown>, j) => {
      const i = todo[j];
      if (rec.status === "failed") {
        out[i] = {
          status: "failed",
          raw: rec.text,
          call: rec.key,
          reason: rec.error ?? "call failed",
        };
        return; // the client already retried transport errors; a re-ask would not help
      }
      const p = parsers[i](rec.text);
      out[i] = p.ok
        ? { status: "ok", value: p.value, raw: rec.text, call: rec.key }
        : { status: "failed", raw: p.raw, call: rec.key, reason: p.reason };
      if (!p.ok) again.push(i);
    });
    todo = again;
  }
  return out;
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
 * import assert from "node:assert/strict";
 * import { LlmClient } from "@lib/llm/mod.ts";
 * import { llmNuggetBackend } from "@lib/nuggets/mod.ts";
 * const client = new LlmClient({ baseUrl: "http://localhost:8000/v1", model: "judge-m" });
 * assert.equal(llmNuggetBackend(client).name, "judge-m");
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
      const request = renderTemplate(tpl, {
        query: w.query,
        nuggets: json(w.nuggets),
        count: w.nuggets.length,
        passages,
        max_nuggets: w.maxNuggets,
      });
      const [out] = await askAll(client, [request], [(t) => parseNuggetList(t, w.maxNuggets)], {
        reasks,
        step: "nugget creation",
        ...o,
      });
      return out;
    },
    async label(windows, o: WindowCallOptions = {}) {
      const tpl = await loadTemplate("nugget_importance", { dir });
      return await askAll(
        client,
        windows.map((w) => renderTemplate(tpl, { query: w.query, nuggets: json(w.nuggets) })),
        windows.map((w) => (t: string) => parseWindowLabels(t, IMPORTANCE, w.nuggets)),
        { reasks, step: "nugget importance", ...o },
      );
    },
    async assign(windows, o: WindowCallOptions = {}) {
      const tpl = await loadTemplate("nugget_assign", { dir });
      return await askAll(
        client,
        windows.map((w) =>
          renderTemplate(tpl, { query: w.query, answer: w.answer, nuggets: json(w.nuggets) })
        ),
        windows.map((w) => (t: string) => parseWindowLabels(t, ASSIGNMENT, w.nuggets)),
        { reasks, step: "nugget assignment", ...o },
      );
    },
  };
}
