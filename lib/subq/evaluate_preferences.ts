/**
 * The preference stage: human-labelled answer pairs judged like the workspace's answers.
 *
 * @module
 */
import type { Decomposition, PreferenceLine } from "@lib/formats/mod.ts";
import type { SubquestionType, TypedCoverage } from "@lib/metrics/mod.ts";
import { replaceSubqPreferences, type WorkspaceLike } from "@lib/store/mod.ts";
import { classifySubquestions } from "./classify_subquestions.ts";
import { decomposeQuestions } from "./decompose_questions.ts";
import { type CoverageItem, judgeAndStoreCoverage } from "./_store_coverage.ts";
import { pairwiseJudge } from "./pairwise_judge.ts";
import { answerRating } from "@lib/metrics/mod.ts";
import { textKey } from "./_text_key.ts";
import type { JudgedPreference } from "./preference_results.ts";
import { coverageJudgeName } from "./judge_answers.ts";
import type { SubqStepOptions } from "./types.ts";

/** Options of {@linkcode evaluatePreferences}. */
export interface EvaluatePreferencesOptions extends SubqStepOptions {
  /** Name of the preference set (e.g. the file's name), the `source` of its rows. */
  name: string;
  /** Sub-questions per question. Default 20. */
  n?: number;
  /** Overlap threshold of the offline coverage judge. Default 0.5. */
  threshold?: number;
  /** Labelled examples of the classifier (default the built-in ones). */
  examples?: readonly Decomposition[];
  /** Client of the pairwise judge (default `client`); offline without both. */
  pairwiseClient?: SubqStepOptions["client"];
}

/**
 * Decomposes and types each distinct question of the pairs, judges both
 * answers against every typed sub-question (coverage judgments shared with
 * the workspace's in `subq_coverage`), runs the pairwise judge in both orders
 * on each pair (offline: the higher default-weighted rating), and replaces the
 * set's rows of `subq_preferences`. A question whose decomposition or typing
 * fails leaves its pairs with no sub-questions (they rate 0 and are reported).
 *
 * @param ws The workspace.
 * @param pairs The labelled pairs (see `readPreferences`).
 * @param opts The set's name and the backends.
 * @returns The judged pairs, in input order.
 * @example
 * ```ts
 * import { evaluatePreferences, preferenceResults } from "@lib/subq/mod.ts";
 * import { readPreferences } from "@lib/formats/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const pairs = await evaluatePreferences(ws, await readPreferences("datasets/sample/preferences.jsonl"), { name: "prefs" });
 * preferenceResults(pairs).hybrid;
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function evaluatePreferences(
  ws: WorkspaceLike,
  pairs: readonly PreferenceLine[],
  opts: EvaluatePreferencesOptions,
): Promise<JudgedPreference[]> {
  const questions = [...new Set(pairs.map((p) => p.question))];
  const decomposed = await decomposeQuestions(
    questions.map((q, i) => ({
      id: `${i}`,
      question: q,
      passages: pairs.filter((p) => p.question === q).flatMap((p) => [p.answerA, p.answerB]),
    })),
    opts,
  );
  const typed = await classifySubquestions(
    decomposed.map((d, i) => ({ id: d.id, question: questions[i], subQuestions: d.subQuestions })),
    opts,
  );
  const subqs = new Map(questions.map((q, i) => [
    q,
    decomposed[i].subQuestions
      .map((text, j) => ({ text, type: typed[i].types[j] }))
      .filter((q): q is { text: string; type: SubquestionType } => q.type !== null),
  ]));
  const judge = coverageJudgeName(opts);
  const todo = new Map<string, CoverageItem>();
  for (const p of pairs) {
    for (const text of [p.answerA, p.answerB]) {
      const key = await textKey(text);
      for (const q of subqs.get(p.question)!) {
        todo.set(`${key}\0${q.text}`, { key, subQuestion: q.text, text });
      }
    }
  }
  const { answered } = await judgeAndStoreCoverage(ws, todo, judge, { ...opts, keepAnswers: true });
  const itemsOf = async (question: string, text: string): Promise<TypedCoverage[]> => {
    const key = await textKey(text);
    return subqs.get(question)!.flatMap((q) => {
      const a = answered!.get(`${key}\0${q.text}`);
      return a === null || a === undefined ? [] : [{ type: q.type, answered: a, retrieved: false }];
    });
  };
  const out: JudgedPreference[] = [];
  for (const p of pairs) {
    out.push({
      a: await itemsOf(p.question, p.answerA),
      b: await itemsOf(p.question, p.answerB),
      human: p.human,
    });
  }
  const verdicts = await pairwiseJudge(
    pairs.map((p, i) => ({
      id: `${i}`,
      question: p.question,
      answerA: p.answerA,
      answerB: p.answerB,
      ratingA: answerRating(out[i].a),
      ratingB: answerRating(out[i].b),
    })),
    { ...opts, client: opts.pairwiseClient ?? opts.client },
  );
  verdicts.forEach((v, i) => (out[i].pairwise = v.verdict));
  await replaceSubqPreferences(
    ws,
    opts.name,
    pairs.map((p, i) => ({
      source: opts.name,
      pair: i + 1,
      question: p.question,
      preference: p.preference,
      human: p.human,
      itemsA: JSON.stringify(out[i].a.map(({ type, answered }) => ({ type, answered }))),
      itemsB: JSON.stringify(out[i].b.map(({ type, answered }) => ({ type, answered }))),
      judge,
      pairwiseJudge: verdicts[i].backend,
      pairwise: verdicts[i].verdict,
    })),
  );
  return out;
}
