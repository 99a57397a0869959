/**
 * The final answer of a model that may reason before answering: what every
 * answer parser reads. Reasoning is never read, so a number, label or ranking
 * a model tries out while thinking cannot become the value it states.
 *
 * @module
 */
import type { ParseResult } from "./types.ts";

/** A reasoning block's opening or closing tag: `<think>`, `</thinking>`, `<reasoning>`, `◁think▷`. */
const TAG = /(?:<|◁)(\/?)\s*(?:think|thinking|reasoning)\s*(?:>|▷)/gi;
/** Channels of a chat format that names them: the final one is the answer. */
const CHANNEL = /<\|channel\|>\s*(\w+)\s*<\|message\|>/g;

/**
 * The answer without its reasoning: every `<think>...</think>` block (also
 * `<thinking>` and `<reasoning>`; a block ends at the first closing tag,
 * whatever it holds) is removed; an opening tag never closed
 * starts reasoning that runs to the end (an answer cut while thinking has no
 * final answer, so it reads as empty); a closing tag without its opening (the
 * opening one was part of the prompt) ends reasoning that started at the top.
 * In answers that name their channels (`<|channel|>analysis<|message|>`), the
 * last `final` channel is the answer.
 * Reasoning a server returns in a separate `reasoning_content` or `reasoning`
 * field never reaches a parser: the client reads the message's `content` only.
 *
 * @param text Model output.
 * @returns The final answer, trimmed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(finalAnswer("<think>Maybe 5? No.</think>\n\nRating: 3"), "Rating: 3");
 * assert.equal(finalAnswer("I weigh it...</think> 4"), "4");
 * assert.equal(finalAnswer("<think>Let me see, a 5 would"), "");
 * ```
 */
export function finalAnswer(text: string): string {
  // `<|channel|>analysis<|message|>...<|end|><|start|>assistant<|channel|>final<|message|>4`:
  // the last final channel is the answer; analysis alone answers nothing.
  const channels = [...text.matchAll(CHANNEL)];
  if (channels.length) {
    const last = channels.filter((m) => m[1].toLowerCase() === "final").at(-1);
    if (!last) return "";
    text = text.slice(last.index! + last[0].length).replace(
      /<\|(?:end|return|call)\|>[\s\S]*$/,
      "",
    );
  }
  let out = "";
  let open = false;
  let from = 0;
  for (const m of text.matchAll(TAG)) {
    const closing = m[1] === "/";
    if (!closing && !open) {
      out += text.slice(from, m.index);
      open = true;
    } else if (closing && open) {
      open = false;
      from = m.index! + m[0].length;
    } else if (closing) {
      // A closing tag without its opening: all before it was reasoning.
      out = "";
      from = m.index! + m[0].length;
    }
    // An opening tag inside reasoning is part of it (blocks do not nest).
  }
  if (!open) out += text.slice(from);
  return out.trim();
}

/**
 * A parser that reads the final answer only ({@link finalAnswer}); a failure
 * keeps the whole raw text, reasoning included.
 *
 * @param parse A parser of final answers.
 * @returns The same parser, for answers that may hold reasoning.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const lone = (t: string) => /^\d$/.test(t) ? { ok: true as const, value: Number(t) } : { ok: false as const, raw: t, reason: "no digit" };
 * assert.deepEqual(readingFinalAnswer(lone)("<think>7</think>4"), { ok: true, value: 4 });
 * assert.deepEqual(readingFinalAnswer(lone)("<think>7</think>x"), { ok: false, raw: "<think>7</think>x", reason: "no digit" });
 * ```
 */
export function readingFinalAnswer<T>(
  parse: (text: string) => ParseResult<T>,
): (text: string) => ParseResult<T> {
  return (text) => {
    const r = parse(finalAnswer(text));
    return r.ok ? r : { ok: false, raw: text, reason: r.reason };
  };
}
