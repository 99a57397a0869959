/**
 * Decomposition of complex questions into sub-questions (Xie et al.).
 *
 * @module
 */
import { loadTemplate, parseJsonValue, renderTemplate, statedList } from "@lib/llm/mod.ts";
import type { ParseResult } from "@lib/llm/mod.ts";
import { stripQuestionNumbering } from "@lib/formats/mod.ts";
import { offlineDecompose } from "./offline_decompose.ts";
import { OFFLINE_BACKENDS, type StepStatus, type SubqStepOptions } from "./types.ts";

/** One complex question to decompose. */
export interface DecomposeInput {
  id: string;
  question: string;
  /** Texts about the question, used by the offline backend. */
  passages?: readonly string[];
}

/** The sub-questions of one complex question. */
export interface DecomposeResult {
  id: string;
  /** Distinct sub-questions, numbering stripped, at most `n`; empty when the step failed. */
  subQuestions: string[];
  status: StepStatus;
  /** Raw model output when unparsed; the failure reason when failed. */
  raw?: string;
  backend: string;
}

/**
 * Parses a JSON list of strings with at least one non-blank entry; without
 * JSON, a list written one sub-question per numbered or bulleted line.
 *
 * @param text Model output.
 * @returns The sub-questions as written, or a failure with the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSubQuestionList } from "@lib/subq/decompose_questions.ts";
 * assert.deepEqual(parseSubQuestionList('["Who?", "When?"]'), { ok: true, value: ["Who?", "When?"] });
 * assert.deepEqual(parseSubQuestionList("1. Who?\n2. When?"), { ok: true, value: ["Who?", "When?"] });
 * ```
 */
export function parseSubQuestionList(text: string): ParseResult<string[]> {
  let r = parseJsonValue(text, "array");
  if (!r.ok) {
    const lines = statedList(text);
    if (!lines) return r;
    r = { ok: true, value: lines };
  }
  const list = r.value as unknown[];
  if (!list.every((x) => typeof x === "string") || !list.some((x) => (x as string).trim())) {
    return { ok: false, raw: text, reason: "expected a JSON array of sub-question strings" };
  }
  return { ok: true, value: list as string[] };
}

function clean(list: readonly string[], n: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list) {
    const t = stripQuestionNumbering(raw).replace(/\s+/g, " ").trim();
    if (t && !seen.has(t.toLowerCase()) && out.length < n) {
      seen.add(t.toLowerCase());
      out.push(t);
    }
  }
  return out;
}

/**
 * Decomposes each complex question into about `n` sub-questions that together
 * answer it, with the `subq_decompose` template (a JSON list of strings;
 * unparseable answers are re-asked at most `reasks` times, then recorded as
 * `unparsed` with the raw text). Without a client, the offline backend fills
 * templates over salient noun phrases of the question and its passages.
 *
 * @param inputs The questions.
 * @param opts `n` (default 20) and the backend options.
 * @returns One result per input, in order.
 * @throws {RangeError} When `n` is not a positive integer.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decomposeQuestions } from "@lib/subq/mod.ts";
 * const [r] = await decomposeQuestions([{ id: "q1", question: "Why did the dam fail?" }], { n: 5 });
 * assert.equal(r.backend, "noun-phrase templates (offline)");
 * ```
 */
export async function decomposeQuestions(
  inputs: readonly DecomposeInput[],
  opts: SubqStepOptions & { n?: number } = {},
): Promise<DecomposeResult[]> {
  const n = opts.n ?? 20;
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`Cannot decompose questions: n must be a positive integer, got ${n}`);
  }
  if (!opts.client) {
    return inputs.map((x) => ({
      id: x.id,
      subQuestions: clean(offlineDecompose(x.question, x.passages ?? [], { n }), n),
      status: "ok",
      backend: OFFLINE_BACKENDS.decompose,
    }));
  }
  const tpl = await loadTemplate("subq_decompose", { dir: opts.templatesDir });
  const records = await opts.client.chatMany(
    inputs.map((x) => renderTemplate(tpl, { question: x.question, n }, { id: x.id })),
    {
      parse: parseSubQuestionList,
      reasks: opts.reasks ?? 2,
      step: "subq-decompose",
      onProgress: opts.onProgress,
      signal: opts.signal,
    },
  );
  return records.map((rec, i) => {
    const base = { id: inputs[i].id, backend: rec.model };
    if (rec.status === "failed") {
      return { ...base, subQuestions: [], status: "failed", raw: rec.error ?? "" };
    }
    if (!rec.parsed!.ok) return { ...base, subQuestions: [], status: "unparsed", raw: rec.text };
    return { ...base, subQuestions: clean(rec.parsed!.value, n), status: "ok" };
  });
}
