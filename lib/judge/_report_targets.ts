/**
 * What rating reports and measuring them share: the judge of the context
 * passages, the answerable sub-questions A of each topic (P* under that
 * judge's ratings at tau), the passages with their token counts, the token
 * count of P* and the reports that are judged (those of topics with an
 * answerable sub-question and a P*).
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";
import {
  passageJudge,
  ratingsByItem,
  readGenerationsByRun,
  readPassages,
  readRatingCounts,
  readWorkspaceQrels,
  readWorkspaceSubquestions,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import {
  answerableQuestions,
  oracleSets,
  oracleTokens as sumOracleTokens,
} from "@lib/metrics/mod.ts";
import { countTokens } from "@lib/text/mod.ts";
import type { Passage } from "@lib/types/mod.ts";

/** Topic -> item -> question -> rating. */
export type RatingMatrix = ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, number>>>;

/** Options of {@linkcode reportTargets}. */
export interface ReportTargetsOptions {
  /** Name of the report judge (preferred as context judge on a tie). */
  judge: string;
  /** Only this generation run. Default: every run. */
  run?: string;
  /** Judge whose passage ratings give A and the context scores. Default: see `passageJudge`. */
  contextJudge?: string;
  /** Answerability threshold of A. */
  tau: number;
  /** Tokenizer for passages stored without a token count. Default `llama3.1`. */
  tokenizer?: "llama3.1" | "whitespace";
  /** Passage qrels defining P*. Default `crux_pr`. */
  qrelsName?: string;
}

/** What {@linkcode reportTargets} reads. */
export interface ReportTargets {
  contextJudge: string;
  /** The context judge's ratings. */
  contextRatings: RatingMatrix;
  /** Sub-questions per topic. */
  questions: ReadonlyMap<string, readonly { questionId: string; text: string }[]>;
  /** P* per topic. */
  oracle: ReadonlyMap<string, readonly string[]>;
  /** A per topic at tau. */
  answerable: ReadonlyMap<string, { questionId: string; text: string }[]>;
  /** Passages by id, each with a token count. */
  passage: ReadonlyMap<string, Passage & { tokens: number }>;
  /** Token count of P* per topic. */
  oracleTokens: ReadonlyMap<string, number>;
  /** Per topic, a passage of P* without text (its densities are left out). */
  missingText: ReadonlyMap<string, string>;
  /** The reports judged: of topics with an answerable sub-question and a P*. */
  judged: Generation[];
}

/**
 * Reads what rating and measuring reports share.
 *
 * @param ws The experiment workspace (after select and generate).
 * @param opts The report judge's name, run filter, tau, context judge, tokenizer, qrels.
 * @returns The context judge and its ratings, A, P*, passages and the judged reports.
 * @throws {RangeError} When no sub-question is marked answerable (run `crux construct select`).
 */
export async function reportTargets(
  ws: WorkspaceLike,
  opts: ReportTargetsOptions,
): Promise<ReportTargets> {
  const gens = await readGenerationsByRun(ws, opts.run);
  // The context judge by the one rule of passage judges: the only one, else the judge of
  // the selection (extra ratings of unjudged passages by the report judge never replace
  // it), else, where no selection recorded its judge (imported qrels), the judge with the
  // most passage ratings (the construction matrix; ties: the report judge).
  const counts = new Map(
    (await readRatingCounts(ws)).filter((c) => c.itemKind === "passage").map((c) => [c.judge, c.n]),
  );
  const most = Math.max(0, ...counts.values());
  const top = [...counts].filter(([, n]) => n === most).map(([j]) => j).sort();
  const contextJudge = await passageJudge(ws, "score the contexts of reports", opts.contextJudge, {
    prefer: top.includes(opts.judge) ? opts.judge : top[0],
  });
  const contextRatings = await ratingsByItem(ws, contextJudge);
  const questions = await readWorkspaceSubquestions(ws);
  const qrels = await readWorkspaceQrels(ws, opts.qrelsName ?? "crux_pr");
  const oracle = oracleSets(qrels);
  // A: the sub-questions P* answers at tau under the context judge's ratings (one
  // definition with the evaluator and the analyses).
  const answerable = new Map<string, { questionId: string; text: string }[]>();
  for (const [t, qs] of questions) {
    const rows = (oracle.get(t) ?? []).map((p) => {
      const r = contextRatings.get(t)?.get(p);
      return r && qs.map((q) => r.get(q.questionId) ?? 0);
    });
    const mask = answerableQuestions(rows, qs.length, { tau: opts.tau });
    answerable.set(t, qs.filter((_, k) => mask[k]));
  }
  if (![...answerable.values()].some((qs) => qs.length)) {
    throw new RangeError(
      "Cannot judge reports: no sub-question is marked answerable; run `crux construct select` first",
    );
  }
  const passages = await readPassages(ws);
  const passage = new Map(
    [...passages.values()].flat().map((p) => [
      p.passageId,
      { ...p, tokens: p.tokens ?? countTokens(p.text, { tokenizer: opts.tokenizer }) },
    ]),
  );
  const oracleTokens = new Map<string, number>();
  // Density needs the text of P* and of every context passage: a passage the
  // workspace lacks leaves that topic's density out (counted and told), never 0.
  const missingText = new Map<string, string>();
  for (const [topicId, ids] of oracle) {
    const sum = sumOracleTokens(ids, (id) => passage.get(id)?.tokens);
    if (sum.missing !== undefined) missingText.set(topicId, sum.missing);
    oracleTokens.set(topicId, sum.tokens);
  }
  const judged = gens.filter((g) =>
    answerable.get(g.topicId)?.length && oracleTokens.has(g.topicId)
  );
  return {
    contextJudge,
    contextRatings,
    questions,
    oracle,
    answerable,
    passage,
    oracleTokens,
    missingText,
    judged,
  };
}

/**
 * Whether the context judge rated a passage on an answerable sub-question of its topic.
 *
 * @param t What {@linkcode reportTargets} read.
 * @param ratings The context ratings (the context judge's, with extra ratings merged).
 */
export function isContextJudged(
  t: Pick<ReportTargets, "answerable">,
  ratings: RatingMatrix,
  pid: string,
  topicId: string,
): boolean {
  return (t.answerable.get(topicId) ?? []).some((q) =>
    ratings.get(topicId)?.get(pid)?.has(q.questionId)
  );
}
