// Requests of the model-based key point backends: extraction, merging and entailment.

import {
  type CallRecord,
  type ChatRequest,
  type LlmClient,
  loadTemplate,
  type ParseResult,
  renderTemplate,
} from "@lib/llm/mod.ts";
import type { BackendCallOptions, CallOutcome } from "./types.ts";

/** Settings shared by the model-based backends. */
export interface LlmBackendOptions {
  /** Folder of replacement templates. Default: built-in only. */
  templatesDir?: string;
  /** Re-asks after an unparseable answer (at temperature 0.2). Default 2. */
  reasks?: number;
}

/** Renders `template` for each value set and sends them all; returns the records in order. */
export async function askAll<T>(
  client: LlmClient,
  template: string,
  values: readonly { id: string; values: Record<string, string> }[],
  parse: (text: string) => ParseResult<T>,
  opts: LlmBackendOptions & BackendCallOptions & { step: string },
): Promise<CallRecord<T>[]> {
  if (!values.length) return [];
  const t = await loadTemplate(template, { dir: opts.templatesDir });
  const requests: ChatRequest[] = values.map((v) => renderTemplate(t, v.values, { id: v.id }));
  return await client.chatMany<T>(requests, {
    signal: opts.signal,
    onProgress: opts.onProgress,
    step: opts.step,
    parse,
    reasks: opts.reasks ?? 2,
  });
}

/** The outcome of a record and, when parsed, its value. */
export function outcome<T>(
  r: CallRecord<T>,
): { status: CallOutcome; value?: T; raw?: string; error?: string } {
  if (r.status === "failed") return { status: "failed", error: r.error ?? "call failed" };
  if (r.parsed?.ok) return { status: "ok", value: r.parsed.value };
  return {
    status: "unparsed",
    raw: r.text,
    error: r.parsed && !r.parsed.ok ? r.parsed.reason : "no parser",
  };
}
