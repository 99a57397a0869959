// Reading a window's labels from model output without ever shifting them onto the wrong nuggets.
import {
  finalAnswer,
  matchLabel,
  parseJsonValue,
  type ParseResult,
  revision,
  statedLabels,
  statedList,
} from "@lib/llm/mod.ts";

/** A list of labels, of `[nugget, label]` pairs or of objects naming their nugget. */
const labelList = (v: unknown) =>
  (v as unknown[]).every((x) =>
    typeof x === "string" || (Array.isArray(x) && x.length === 2) ||
    (x !== null && typeof x === "object" && !Array.isArray(x))
  );
/** A list of nugget strings or `{"text"}` objects. */
const nuggetList = (v: unknown) =>
  (v as unknown[]).every((x) =>
    typeof x === "string" || typeof (x as { text?: unknown } | null)?.text === "string"
  );
const key = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * Labels of a window, one per nugget in order. Accepts a JSON list of exactly
 * `nuggets.length` labels; repairs outputs that name their nuggets (a list of
 * `{"nugget"|"text", "label"|...}` objects or `[text, label]` pairs, or an object
 * keyed by nugget text or 1-based number) by aligning on the nugget, when every
 * nugget is named exactly once. Without JSON, labels stated one per line are read
 * (`statedLabels`): numbered ones align with the nugget of their number, each
 * nugget once; unnumbered ones must be exactly one per nugget. Anything else, a
 * plain list of the wrong length included, is a failure with the raw text (the
 * caller re-asks), and so is an answer that later revises its labels
 * (`Correction: the second should be support`): never half-corrected.
 * Reasoning (`<think>` blocks) is not read.
 */
export function parseWindowLabels<L extends string>(
  text: string,
  allowed: readonly L[],
  nuggets: readonly string[],
): ParseResult<L[]> {
  const label = (v: unknown) => matchLabel(v, allowed);
  const fail = (reason: string): ParseResult<L[]> => ({ ok: false, raw: text, reason });
  const answer = finalAnswer(text);
  const revised = revision(answer, allowed);
  if (revised) return fail(`the answer revises itself: ${revised}`);
  const arr = parseJsonValue(text, "array", { fits: labelList });
  const pairs: [unknown, unknown][] = [];
  if (arr.ok) {
    const list = arr.value as unknown[];
    if (list.every((x) => typeof x === "string")) {
      const labels = list.map(label);
      const bad = labels.findIndex((l) => l === undefined);
      if (bad >= 0) {
        return fail(`unknown label ${JSON.stringify(list[bad])}; expected ${allowed.join(" | ")}`);
      }
      if (labels.length !== nuggets.length) {
        return fail(`expected ${nuggets.length} labels, found ${labels.length}`);
      }
      return { ok: true, value: labels as L[] };
    }
    for (const x of list) {
      if (Array.isArray(x) && x.length === 2) pairs.push([x[0], x[1]]);
      else if (x && typeof x === "object") {
        const o = x as Record<string, unknown>;
        const name = o.nugget ?? o.text ?? o.id ?? o.index;
        const value = o.label ?? o.assignment ?? o.importance;
        pairs.push([name, value]);
      } else return fail(`expected labels or named nuggets, found ${JSON.stringify(x)}`);
    }
  } else {
    const obj = parseJsonValue(text, "object");
    if (obj.ok) pairs.push(...Object.entries(obj.value as Record<string, unknown>));
    else {
      // Labels stated one per line or as bare words: numbered ones align by their number.
      const stated = statedLabels(answer, allowed);
      if (!stated) return fail(arr.reason);
      if (stated.ordered) {
        if (stated.ordered.length !== nuggets.length) {
          return fail(`expected ${nuggets.length} labels, found ${stated.ordered.length}`);
        }
        return { ok: true, value: stated.ordered };
      }
      pairs.push(...stated.numbered);
    }
  }
  const out: (L | undefined)[] = nuggets.map(() => undefined);
  const index = new Map(nuggets.map((n, i) => [key(n), i]));
  for (const [name, value] of pairs) {
    const i = typeof name === "number"
      ? name - 1
      : typeof name === "string"
      ? index.get(key(name)) ?? (/^\d+$/.test(name.trim()) ? Number(name) - 1 : -1)
      : -1;
    const l = label(value);
    if (i < 0 || i >= nuggets.length || out[i] !== undefined || l === undefined) {
      return fail(`cannot align ${JSON.stringify([name, value])} with exactly one nugget`);
    }
    out[i] = l;
  }
  const missing = out.findIndex((l) => l === undefined);
  if (missing >= 0) return fail(`no label for nugget ${missing + 1} of ${nuggets.length}`);
  return { ok: true, value: out as L[] };
}

/**
 * A JSON list of nugget strings, trimmed, without empty or repeated entries, cut
 * to `max`; without JSON, a list written one nugget per numbered or bulleted
 * line (`statedList`). Reasoning is not read; an answer that revises itself
 * (`Correction: ...`) is a failure.
 */
export function parseNuggetList(text: string, max: number): ParseResult<string[]> {
  const revised = revision(finalAnswer(text));
  if (revised) return { ok: false, raw: text, reason: `the answer revises itself: ${revised}` };
  let arr = parseJsonValue(text, "array", { fits: nuggetList });
  if (!arr.ok) {
    const lines = statedList(finalAnswer(text));
    if (!lines) return arr;
    arr = { ok: true, value: lines };
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const x of arr.value as unknown[]) {
    const s = typeof x === "string"
      ? x
      : x && typeof x === "object" && typeof (x as { text?: unknown }).text === "string"
      ? (x as { text: string }).text
      : undefined;
    if (s === undefined) {
      return {
        ok: false,
        raw: text,
        reason: `expected nugget strings, found ${JSON.stringify(x)}`,
      };
    }
    const t = s.trim().replace(/\s+/g, " ");
    if (t && !seen.has(key(t))) {
      seen.add(key(t));
      out.push(t);
    }
  }
  return { ok: true, value: out.slice(0, max) };
}
