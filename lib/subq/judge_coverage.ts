/**
 * Coverage judgments: does a text (an answer or a chunk) answer a sub-question,
 * and where (Xie et al.).
 *
 * @module
 */
import {
  finalAnswer,
  loadTemplate,
  parseJsonValue,
  type ParseResult,
  parseVerdict,
  plainAnswer,
  renderTemplate,
} from "@lib/llm/mod.ts";
import { lexicalCoverage } from "./lexical_coverage.ts";
import { locateSpan } from "./locate_span.ts";
import { OFFLINE_BACKENDS, type StepStatus, type SubqStepOptions } from "./types.ts";

/** One (sub-question, text) pair to judge. */
export interface SubqCoverageInput {
  id: string;
  subQuestion: string;
  text: string;
}

/** The judgment of one pair. */
export interface CoverageResult {
  id: string;
  /** Null when the step failed or the answer could not be parsed. */
  answered: boolean | null;
  /** The answering span as the judge gave it ("" when none). */
  span: string;
  /** Whether the span occurs in the text; null when there is no span. A false value flags the judgment. */
  spanFound: boolean | null;
  /** Where the span starts, 0-100 % of the text's words; null without a located span. */
  position: number | null;
  status: StepStatus;
  raw?: string;
  backend: string;
}

/**
 * Parses `{"label": "answered"|"unanswered", "span": "..."}` or a plain label
 * (`Answered.`). A span `None` (the prompt's mark of an unanswered question)
 * is no span, and reads as unanswered whatever the label; an answer that is only `None` (the paper's way of saying no
 * span answers the sub-question) reads as unanswered, and one that gives only
 * the span (`{"span": "..."}`, `Span: "..."`) as answered by it. Reasoning
 * (`<think>` blocks) is not read.
 *
 * @param text Model output.
 * @returns Whether the sub-question is answered, and the span, or a failure with the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCoverageAnswer } from "@lib/subq/judge_coverage.ts";
 * assert.deepEqual(parseCoverageAnswer("None"), { ok: true, value: { answered: false, span: "" } });
 * ```
 */
export function parseCoverageAnswer(
  text: string,
): ParseResult<{ answered: boolean; span: string }> {
  const v = parseVerdict(text, ["answered", "unanswered"]);
  if (!v.ok) {
    const answer = plainAnswer(finalAnswer(text)).trim();
    if (/^(?:(?:answer|span|label|coverage)\s*:\s*)?["'“]?none["'”]?[.!]?$/i.test(answer)) {
      return { ok: true, value: { answered: false, span: "" } };
    }
    // The span alone, as the paper's format gives it: a span answers, "None" does not.
    const obj = parseJsonValue(text, "object", {
      fits: (o) =>
        typeof (o as { span?: unknown }).span === "string" && !("label" in (o as object)),
    });
    const field = /^span\s*:\s*["“](.+)["”]\.?$/i.exec(answer);
    const span = obj.ok ? (obj.value as { span: string }).span.trim() : field?.[1].trim();
    if (span !== undefined) {
      const none = span === "" || /^none\.?$/i.test(span);
      return { ok: true, value: { answered: !none, span: none ? "" : span } };
    }
    return v;
  }
  const span = v.value.evidence.trim();
  // "None" in the span field is no span: the sub-question is unanswered whatever the label.
  if (/^none\.?$/i.test(span)) return { ok: true, value: { answered: false, span: "" } };
  return { ok: true, value: { answered: v.value.label === "answered", span } };
}

function located(id: string, text: string, answered: boolean, span: string, backend: string) {
  const loc = span ? locateSpan(text, span) : undefined;
  return {
    id,
    answered,
    span,
    spanFound: loc ? loc.found : null,
    position: answered && loc?.found ? loc.position : null,
    status: "ok" as const,
    backend,
  };
}

/**
 * Judges each (sub-question, text) pair with the `subq_coverage` template: a
 * label and the answering span copied from the text. The span is located in
 * the text (its start as a percentage of the text's words, for #6); a span
 * that does not occur is kept and flagged (`spanFound: false`, no position).
 * Unparseable answers are re-asked at most `reasks` times, then recorded
 * `unparsed` with the raw text. Without a client, the offline lexical backend
 * takes the best-matching sentence as the span (`threshold`, default 0.5).
 *
 * @param inputs The pairs.
 * @param opts `threshold` of the offline backend and the backend options.
 * @returns One result per input, in order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeCoverage } from "@lib/subq/mod.ts";
 * const [r] = await judgeCoverage([
 *   { id: "1", subQuestion: "When did the bridge collapse?", text: "Rain fell. The bridge collapsed on Tuesday." },
 * ]);
 * assert.deepEqual([r.answered, r.position], [true, (100 * 2) / 7]); // the span starts at word 3 of 7
 * ```
 */
export async function judgeCoverage(
  inputs: readonly SubqCoverageInput[],
  opts: SubqStepOptions & { threshold?: number } = {},
): Promise<CoverageResult[]> {
  if (!opts.client) {
    return inputs.map((x) => {
      const c = lexicalCoverage(x.subQuestion, x.text, { threshold: opts.threshold });
      return located(
        x.id,
        x.text,
        c.answered,
        c.answered ? c.span ?? "" : "",
        OFFLINE_BACKENDS.coverage,
      );
    });
  }
  const tpl = await loadTemplate("subq_coverage", { dir: opts.templatesDir });
  const records = await opts.client.chatMany(
    inputs.map((x) =>
      renderTemplate(tpl, { subquestion: x.subQuestion, text: x.text }, { id: x.id })
    ),
    {
      parse: parseCoverageAnswer,
      reasks: opts.reasks ?? 2,
      step: "subq-coverage",
      onProgress: opts.onProgress,
      signal: opts.signal,
    },
  );
  return records.map((rec, i): CoverageResult => {
    const x = inputs[i];
    const none = { id: x.id, answered: null, span: "", spanFound: null, position: null };
    if (rec.status === "failed") {
      return { ...none, status: "failed", raw: rec.error ?? "", backend: rec.model };
    }
    if (!rec.parsed!.ok) return { ...none, status: "unparsed", raw: rec.text, backend: rec.model };
    const v = rec.parsed!.value;
    return located(x.id, x.text, v.answered, v.span, rec.model);
  });
}
