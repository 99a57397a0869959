/**
 * The pairwise comparison stage: every pair of runs on every topic, judged in both orders.
 *
 * @module
 */
import type { SubquestionType } from "@lib/metrics/mod.ts";
import {
  clearSubqPairwise,
  readGeneratedAnswers,
  readTopics,
  type WorkspaceLike,
  writeSubqPairwise,
} from "@lib/store/mod.ts";
import { pairwiseJudge } from "./pairwise_judge.ts";
import { systemScores } from "./system_scores.ts";
import { OFFLINE_BACKENDS, type SubqStepOptions } from "./types.ts";
import { workspaceCoverageLines } from "./workspace_coverage_lines.ts";
import type { RunVerdict } from "./win_rates.ts";

/** Options of {@linkcode compareRuns}. */
export interface CompareRunsOptions extends SubqStepOptions {
  /** Generation runs to compare (each unordered pair once per topic). */
  runs: readonly string[];
  /** The coverage judge and sub-question source whose ratings the offline judge compares. */
  judge: string;
  source?: string;
  weights?: Readonly<Record<SubquestionType, number>>;
}

/**
 * Compares every pair of `runs` on every topic where both have an answer with
 * the position-swapped pairwise judge (online: `subq_pairwise` in both orders,
 * disagreement = tie; offline: the higher weighted type coverage of the
 * topic's answers, labelled `weighted coverage (offline)`), and replaces the
 * judge's rows of those runs in `subq_pairwise`.
 *
 * @param ws The workspace.
 * @param opts Runs, the coverage judge and source, the backend.
 * @returns The verdicts and the pairwise judge's name.
 * @example
 * ```ts
 * import { compareRuns, winRates } from "@lib/subq/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const { verdicts } = await compareRuns(ws, { runs: ["rag-bm25", "subq-core-query"], judge: "lexical coverage (offline)" });
 * winRates(verdicts);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function compareRuns(
  ws: WorkspaceLike,
  opts: CompareRunsOptions,
): Promise<{ verdicts: RunVerdict[]; judge: string }> {
  const judge = opts.client?.model ?? OFFLINE_BACKENDS.pairwise;
  const gens = await readGeneratedAnswers(ws, opts.runs);
  const answers = new Map(gens.map((g) => [`${g.run}\0${g.topicId}`, g.text]));
  const requests = new Map((await readTopics(ws)).map((r) => [r.topicId, r.request]));
  const { lines } = opts.client
    ? { lines: [] }
    : await workspaceCoverageLines(ws, { runs: opts.runs, judge: opts.judge, source: opts.source });
  const rating = (run: string, topicId: string) =>
    systemScores(lines.filter((l) => l.system === run && l.questionId === topicId), opts).rating ??
      undefined;
  const topics = [...new Set(gens.map((g) => g.topicId))].sort();
  const inputs = [];
  const meta: { topicId: string; runA: string; runB: string }[] = [];
  for (const topicId of topics) {
    for (let i = 0; i < opts.runs.length; i++) {
      for (let j = i + 1; j < opts.runs.length; j++) {
        const [runA, runB] = [opts.runs[i], opts.runs[j]];
        const a = answers.get(`${runA}\0${topicId}`);
        const b = answers.get(`${runB}\0${topicId}`);
        if (a === undefined || b === undefined) continue;
        meta.push({ topicId, runA, runB });
        inputs.push({
          id: `${inputs.length}`,
          question: requests.get(topicId) ?? "",
          answerA: a,
          answerB: b,
          ...(opts.client
            ? {}
            : { ratingA: rating(runA, topicId), ratingB: rating(runB, topicId) }),
        });
      }
    }
  }
  const results = await pairwiseJudge(inputs, opts);
  await clearSubqPairwise(ws, judge, opts.runs);
  const rows = results.map((r, i) => ({
    ...meta[i],
    judge,
    forward: r.forward,
    swapped: r.swapped,
    verdict: r.verdict,
  }));
  await writeSubqPairwise(ws, rows);
  return {
    verdicts: rows.map((r) => ({
      topicId: r.topicId,
      runA: r.runA,
      runB: r.runB,
      verdict: r.verdict,
    })),
    judge,
  };
}
