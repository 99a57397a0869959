/**
 * The position-swapped pairwise judge: which of two answers is better.
 *
 * @module
 */
import { loadTemplate, parseJsonValue, type ParseResult, renderTemplate } from "@lib/llm/mod.ts";
import { OFFLINE_BACKENDS, type SubqStepOptions } from "./types.ts";

/** One pair of answers to compare. */
export interface PairwiseInput {
  id: string;
  question: string;
  answerA: string;
  answerB: string;
  /** Weighted type coverage of A and B: the offline backend prefers the higher one. */
  ratingA?: number;
  ratingB?: number;
}

/** A winner, or no decision. */
export type PairVerdict = "A" | "B" | "tie";

/** The judgment of one pair in both orders. */
export interface PairwiseResult {
  id: string;
  /** Verdict with A shown first; null when that call failed or did not parse. */
  forward: PairVerdict | null;
  /** Verdict with B shown first (mapped back to A/B); null when failed or unparsed. */
  swapped: PairVerdict | null;
  /** The two orders agree: that winner; they disagree or one is missing: `tie`. */
  verdict: PairVerdict;
  backend: string;
}

/** Keys under which a judge names the better answer: the template's, then common variants. */
const VERDICT_KEYS = ["better", "winner", "preferred", "preference", "choice"];

/**
 * Parses `{"better": "1" | "2" | "tie"}`. The answer may be named under
 * `winner`, `preferred`, `preference` or `choice` instead, as a number or as
 * `Answer 1` / `Response 2`, and a tie as `tie`, `equal`, `neither` or `both`
 * (the template asks for a tie when neither is better); two keys naming
 * different answers, or anything else, leave the answer unparsed.
 *
 * @param text Model output.
 * @returns `"1"`, `"2"` or `"tie"`, or a failure with the raw text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePairwiseAnswer } from "@lib/subq/pairwise_judge.ts";
 * assert.deepEqual(parsePairwiseAnswer('{"better": "2"}'), { ok: true, value: "2" });
 * assert.deepEqual(parsePairwiseAnswer('{"winner": "Answer 1"}'), { ok: true, value: "1" });
 * assert.equal(parsePairwiseAnswer('{"better": "3"}').ok, false);
 * ```
 */
export function parsePairwiseAnswer(text: string): ParseResult<"1" | "2" | "tie"> {
  const r = parseJsonValue(text, "object", {
    fits: (v) => VERDICT_KEYS.some((k) => k in (v as Record<string, unknown>)),
  });
  if (!r.ok) return r;
  const o = r.value as Record<string, unknown>;
  const named = new Set(
    VERDICT_KEYS.filter((k) => k in o).map((k) => pairwiseChoice(o[k])),
  );
  const [v] = named;
  return named.size === 1 && v !== undefined
    ? { ok: true, value: v }
    : { ok: false, raw: text, reason: `expected "better": "1", "2" or "tie"` };
}

/** `1`, `"2"`, `"Answer 1"`, `"Response 2."`, `"Tie"`, `"neither"`; undefined for anything else. */
function pairwiseChoice(value: unknown): "1" | "2" | "tie" | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const v = String(value).toLowerCase().replace(/[*"'`.!]/g, "").trim()
    .replace(/^(?:answer|response|output)\s*#?\s*/, "");
  if (v === "1" || v === "2") return v;
  return ["tie", "equal", "neither", "both"].includes(v) ? "tie" : undefined;
}

/** Combines the two orders: agreement wins, any disagreement or missing verdict is a tie. */
export function combineOrders(
  forward: PairVerdict | null,
  swapped: PairVerdict | null,
): PairVerdict {
  return forward !== null && forward === swapped ? forward : "tie";
}

/**
 * Compares each pair twice with the `subq_pairwise` template, A first and
 * then B first, so position bias cancels: the verdict is the winner when both
 * orders agree and a tie otherwise (a failed or unparseable order counts as
 * no decision). Without a client, the offline backend prefers the answer with
 * the higher weighted type coverage (`ratingA`/`ratingB`; equal or missing
 * ratings tie) in both orders.
 *
 * @param inputs The pairs.
 * @param opts Backend options.
 * @returns One result per pair, in order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairwiseJudge } from "@lib/subq/mod.ts";
 * const [r] = await pairwiseJudge([
 *   { id: "p", question: "Q?", answerA: "a", answerB: "b", ratingA: 0.5, ratingB: 0.2 },
 * ]);
 * assert.equal(r.verdict, "A");
 * ```
 */
export async function pairwiseJudge(
  inputs: readonly PairwiseInput[],
  opts: SubqStepOptions = {},
): Promise<PairwiseResult[]> {
  if (!opts.client) {
    return inputs.map((x) => {
      const v: PairVerdict = x.ratingA === undefined || x.ratingB === undefined
        ? "tie"
        : x.ratingA > x.ratingB
        ? "A"
        : x.ratingB > x.ratingA
        ? "B"
        : "tie";
      return { id: x.id, forward: v, swapped: v, verdict: v, backend: OFFLINE_BACKENDS.pairwise };
    });
  }
  const tpl = await loadTemplate("subq_pairwise", { dir: opts.templatesDir });
  const requests = inputs.flatMap((x) => [
    renderTemplate(tpl, { question: x.question, answer_1: x.answerA, answer_2: x.answerB }),
    renderTemplate(tpl, { question: x.question, answer_1: x.answerB, answer_2: x.answerA }),
  ]);
  const records = await opts.client.chatMany(requests, {
    parse: parsePairwiseAnswer,
    reasks: opts.reasks ?? 2,
    step: "subq-pairwise",
    onProgress: opts.onProgress,
    signal: opts.signal,
  });
  const verdict = (i: number, swapped: boolean): PairVerdict | null => {
    const rec = records[i];
    if (rec.status === "failed" || !rec.parsed!.ok) return null;
    const v = rec.parsed!.value;
    if (v === "tie") return "tie";
    return (v === "1") !== swapped ? "A" : "B";
  };
  return inputs.map((x, i) => {
    const forward = verdict(2 * i, false);
    const swapped = verdict(2 * i + 1, true);
    return {
      id: x.id,
      forward,
      swapped,
      verdict: combineOrders(forward, swapped),
      backend: records[2 * i].model,
    };
  });
}
