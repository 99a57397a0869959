/**
 * The coverage stage over a workspace: every answer of the evaluated runs and
 * every retrieved chunk of it, judged against each typed sub-question.
 *
 * @module
 */
import {
  readGeneratedAnswers,
  readPassageTexts,
  readSubqCoverageDone,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import { type CoverageItem, judgeAndStoreCoverage } from "./_store_coverage.ts";
import { textKey } from "./_text_key.ts";
import { subqByTopic } from "./_typed_rows.ts";
import { OFFLINE_BACKENDS, type SubqStepOptions } from "./types.ts";

/** Options of {@linkcode judgeAnswers}. */
export interface JudgeAnswersOptions extends SubqStepOptions {
  /** Generation runs whose answers are judged. */
  runs: readonly string[];
  /** Origin of the sub-questions. Default `decompose`. */
  source?: string;
  /** Judge the retrieved chunks too (for #2-#5). Default true. */
  chunks?: boolean;
  /** Overlap threshold of the offline backend. Default 0.5. */
  threshold?: number;
}

/** What {@linkcode judgeAnswers} did. */
export interface JudgeAnswersSummary {
  /** The coverage judge's name (the `judge` of the measures). */
  judge: string;
  answers: number;
  /** Judgments written (pairs judged before are reused). */
  judged: number;
  /** Judgments whose span is not in the text. */
  flagged: number;
  unparsed: number;
  failed: number;
}

/** The judge name of a backend (the model name, or the offline backend's label). */
export function coverageJudgeName(opts: { client?: { model: string } }): string {
  return opts.client?.model ?? OFFLINE_BACKENDS.coverage;
}

/**
 * Judges, for every answer (a `generations` row) of `runs` and every typed
 * sub-question of its topic, the answer text and each of its context passages
 * (`context_ids`, the retrieved chunks), writing `subq_coverage` rows keyed by
 * the text's SHA-256, so a chunk shared by several answers is judged once and a
 * re-run judges nothing already judged by this judge (failed calls are asked again).
 *
 * @param ws The workspace (generations, passages, classified sub-questions).
 * @param opts Runs, source, backend options.
 * @returns The judge name and counts.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeAnswers } from "@lib/subq/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * assert.equal((await judgeAnswers(ws, { runs: ["rag-bm25"] })).judge, "lexical coverage (offline)");
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function judgeAnswers(
  ws: WorkspaceLike,
  opts: JudgeAnswersOptions,
): Promise<JudgeAnswersSummary> {
  const judge = coverageJudgeName(opts);
  const subqs = await subqByTopic(ws, opts.source ?? "decompose");
  const texts = await readPassageTexts(ws);
  const gens = await readGeneratedAnswers(ws, opts.runs);
  const done = new Set(await readSubqCoverageDone(ws, judge));
  const todo = new Map<string, CoverageItem>();
  for (const g of gens) {
    const qs = (subqs.get(g.topicId) ?? []).filter((q) => q.type);
    const items = [
      g.text,
      ...(opts.chunks === false ? [] : g.contextIds ?? [])
        .map((id) => texts.get(id)).filter((t): t is string => t !== undefined),
    ];
    for (const text of items) {
      const key = await textKey(text);
      for (const q of qs) {
        const id = `${key}\0${q.text}`;
        if (!done.has(id) && !todo.has(id)) todo.set(id, { key, subQuestion: q.text, text });
      }
    }
  }
  const stored = await judgeAndStoreCoverage(ws, todo, judge, opts);
  return {
    judge,
    answers: gens.length,
    judged: stored.judged,
    flagged: stored.flagged,
    unparsed: stored.unparsed,
    failed: stored.failed,
  };
}
