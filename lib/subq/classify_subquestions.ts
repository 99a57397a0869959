/**
 * Typing sub-questions as core, background or follow-up (Xie et al.).
 *
 * @module
 */
import { loadTemplate, parseJsonValue, type ParseResult, renderTemplate } from "@lib/llm/mod.ts";
import type { SubquestionType } from "@lib/metrics/mod.ts";
import type { Decomposition } from "@lib/formats/mod.ts";
import { heuristicType } from "./heuristic_type.ts";
import { OFFLINE_BACKENDS, type StepStatus, type SubqStepOptions } from "./types.ts";

const TYPES = new Set(["core", "background", "follow-up"]);

/** The built-in labelled examples (few-shot default), written for this workbench. */
export const DEFAULT_TYPE_EXAMPLES: readonly Decomposition[] = [{
  question: "Why did the city's new tram line open two years late?",
  subQuestions: [
    { text: "What delays did the tram construction run into?", type: "core" },
    { text: "Who decided to postpone the opening date?", type: "core" },
    { text: "When was the tram line first proposed?", type: "background" },
    { text: "How does a tram differ from a light-rail system?", type: "background" },
    { text: "Will fares on the new tram line rise next year?", type: "follow-up" },
    { text: "Which other cities are planning tram lines?", type: "follow-up" },
  ],
}];

/** The sub-questions of one complex question to type. */
export interface ClassifyInput {
  id: string;
  question: string;
  subQuestions: readonly string[];
}

/** The types of one question's sub-questions. */
export interface ClassifyResult {
  id: string;
  /** One type per sub-question, in order; empty when the step failed. */
  types: SubquestionType[];
  status: StepStatus;
  raw?: string;
  backend: string;
}

function examplesText(examples: readonly Decomposition[]): string {
  return examples.map((d) =>
    `Examples for the main question "${d.question}":\n` +
    d.subQuestions.map((s) => `- ${JSON.stringify(s.text)} -> "${s.type}"`).join("\n")
  ).join("\n\n");
}

function parseTypes(n: number) {
  return (text: string): ParseResult<SubquestionType[]> => {
    const r = parseJsonValue(text, "array");
    if (!r.ok) return r;
    const list = (r.value as unknown[]).map((x) => typeof x === "string" ? x.toLowerCase() : x);
    if (list.length !== n || !list.every((x) => TYPES.has(x as string))) {
      return {
        ok: false,
        raw: text,
        reason: `expected ${n} labels, each core, background or follow-up`,
      };
    }
    return { ok: true, value: list as SubquestionType[] };
  };
}

/**
 * Types every sub-question of each complex question with the `subq_type`
 * template: few-shot with `examples` (default {@linkcode DEFAULT_TYPE_EXAMPLES};
 * pass a labelled decomposition file's entries, or `[]` for zero-shot). An
 * answer must list exactly one valid label per sub-question; otherwise it is
 * re-asked at most `reasks` times and then recorded `unparsed` with its raw
 * text (never guessed). Without a client, the offline type heuristic runs.
 *
 * @param inputs Questions with their sub-questions.
 * @param opts `examples` and the backend options.
 * @returns One result per input, in order.
 * @example
 * ```ts
 * import { classifySubquestions } from "@lib/subq/mod.ts";
 * const [r] = await classifySubquestions([
 *   { id: "q1", question: "Why did the dam fail?", subQuestions: ["What will be rebuilt next?"] },
 * ]);
 * r.types; // ["follow-up"]
 * ```
 */
export async function classifySubquestions(
  inputs: readonly ClassifyInput[],
  opts: SubqStepOptions & { examples?: readonly Decomposition[] } = {},
): Promise<ClassifyResult[]> {
  if (!opts.client) {
    return inputs.map((x) => ({
      id: x.id,
      types: x.subQuestions.map((s) => heuristicType(x.question, s)),
      status: "ok",
      backend: OFFLINE_BACKENDS.classify,
    }));
  }
  const tpl = await loadTemplate("subq_type", { dir: opts.templatesDir });
  const examples = examplesText(opts.examples ?? DEFAULT_TYPE_EXAMPLES);
  // The parser checks the label count, so requests are grouped by sub-question count.
  const counts = [...new Set(inputs.map((x) => x.subQuestions.length))].filter((n) => n > 0);
  const out = new Map<string, ClassifyResult>();
  for (const x of inputs) {
    if (!x.subQuestions.length) out.set(x.id, { id: x.id, types: [], status: "ok", backend: "" });
  }
  await Promise.all(counts.map(async (n) => {
    const group = inputs.filter((x) => x.subQuestions.length === n);
    const records = await opts.client!.chatMany(
      group.map((x) =>
        renderTemplate(tpl, {
          question: x.question,
          subquestions: JSON.stringify(x.subQuestions, null, 1),
          examples,
        }, { id: x.id })
      ),
      {
        parse: parseTypes(n),
        reasks: opts.reasks ?? 2,
        step: "subq-classify",
        onProgress: opts.onProgress,
        signal: opts.signal,
      },
    );
    records.forEach((rec, i) => {
      const base = { id: group[i].id, backend: rec.model };
      out.set(
        base.id,
        rec.status === "failed"
          ? { ...base, types: [], status: "failed", raw: rec.error ?? "" }
          : !rec.parsed!.ok
          ? { ...base, types: [], status: "unparsed", raw: rec.text }
          : { ...base, types: rec.parsed!.value, status: "ok" },
      );
    });
  }));
  return inputs.map((x) => out.get(x.id)!);
}
