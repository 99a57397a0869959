/**
 * Typing sub-questions as core, background or follow-up (Xie et al.).
 *
 * @module
 */
import { loadTemplate, renderTemplate } from "@lib/llm/mod.ts";
import { parseSubquestionType } from "./parse_subquestion_type.ts";
import type { SubquestionType } from "@lib/metrics/mod.ts";
import type { Decomposition } from "@lib/formats/mod.ts";
import { heuristicType } from "./heuristic_type.ts";
import { OFFLINE_BACKENDS, type StepStatus, type SubqStepOptions } from "./types.ts";

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
  /** One type per sub-question, in order; null where its call failed or its answer was unparsed. */
  types: (SubquestionType | null)[];
  status: StepStatus;
  raw?: string;
  backend: string;
}

function examplesText(examples: readonly Decomposition[]): string {
  if (!examples.length) return "";
  return "Labelled examples:\n\n" +
    examples.map((d) =>
      d.subQuestions.map((s) =>
        `Main question: ${d.question}\nSub-question: ${s.text}\nType: ${s.type}`
      ).join("\n\n")
    ).join("\n\n");
}

/**
 * Types every sub-question of each complex question with the `subq_type`
 * template, one sub-question per call as in the paper (the three types'
 * definitions in the prompt): few-shot with `examples` (default
 * {@linkcode DEFAULT_TYPE_EXAMPLES}; a labelled decomposition file's entries
 * override them, `[]` is zero-shot). An answer must name exactly one type;
 * otherwise it is re-asked at most `reasks` times and then that sub-question
 * is left untyped (null) with its raw text (never guessed); the question's
 * result is then `unparsed` (or `failed`) with the other types kept. Without a client,
 * the offline type heuristic runs.
 *
 * @param inputs Questions with their sub-questions.
 * @param opts `examples` and the backend options.
 * @returns One result per input, in order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifySubquestions } from "@lib/subq/mod.ts";
 * const [r] = await classifySubquestions([
 *   { id: "q1", question: "Why did the dam fail?", subQuestions: ["What will be rebuilt next?"] },
 * ]);
 * assert.deepEqual(r.types, ["follow-up"]);
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
  const items = inputs.flatMap((x) => x.subQuestions.map((text, j) => ({ x, text, j })));
  const records = await opts.client.chatMany(
    items.map(({ x, text, j }) =>
      renderTemplate(tpl, { question: x.question, subquestion: text, examples }, {
        id: `${x.id}#${j + 1}`,
      })
    ),
    {
      parse: parseSubquestionType,
      reasks: opts.reasks ?? 2,
      step: "subq-classify",
      onProgress: opts.onProgress,
      signal: opts.signal,
    },
  );
  const out = new Map<string, ClassifyResult>();
  for (const x of inputs) {
    out.set(x.id, { id: x.id, types: x.subQuestions.map(() => null), status: "ok", backend: "" });
  }
  const bad = new Map<string, string[]>();
  records.forEach((rec, i) => {
    const r = out.get(items[i].x.id)!;
    r.backend = rec.model;
    if (rec.status === "failed") {
      if (r.status === "ok") r.status = "failed";
      bad.set(r.id, [...(bad.get(r.id) ?? []), `#${items[i].j + 1}: ${rec.error ?? "failed"}`]);
    } else if (!rec.parsed!.ok) {
      if (r.status === "ok") r.status = "unparsed";
      bad.set(r.id, [...(bad.get(r.id) ?? []), `#${items[i].j + 1}: ${rec.text}`]);
    } else r.types[items[i].j] = rec.parsed!.value;
  });
  for (const [id, raws] of bad) out.get(id)!.raw = raws.join("\n");
  return inputs.map((x) => out.get(x.id)!);
}
