/**
 * The notes under an evaluation, shared by `crux eval` and `crux measure` so
 * both print the same: topics evaluated and averaged per measure, repeated
 * documents, topics left out of a measure and why, unparseable ratings, the
 * tokenizer, and judged@k.
 *
 * @module
 */
import { evaluate, type EvaluationResult } from "@lib/metrics/evaluate.ts";
import { type Judged, type JudgedInputs, prepareJudged } from "@lib/metrics/judged.ts";
import type { EvalOptions } from "./_eval_options.ts";
import { judgedDepth, judgedFooter } from "./_eval_judged.ts";

/** What the notes need to know about the evaluation's options. */
export type NotesOptions = Pick<EvalOptions, "measures" | "complete" | "tokenizer">;

/**
 * Diagnostics of an evaluation: per run, the topics evaluated and how many each
 * measure averaged, repeated documents dropped, run topics without judgments,
 * topics left out of a measure with the reason; then unparseable ratings and
 * the tokenizer of density.
 *
 * @param result The evaluation.
 * @param opts Measures asked, `complete`, tokenizer.
 * @param topicNote A first line about the topic set, when there is one.
 * @returns Lines starting with `# `.
 */
export function evaluationNotes(
  result: EvaluationResult,
  opts: NotesOptions,
  topicNote?: string,
): string[] {
  const lines: string[] = topicNote ? [topicNote] : [];
  for (const run of result.runs) {
    const counts = [...new Set(Object.values(run.counts))];
    const averaged = counts.length === 1
      ? `${counts[0]}`
      : result.measures.map((m) => `${m} ${run.counts[m]}`).join(", ");
    lines.push(
      `# ${run.run}: ${run.topics} topics evaluated (${
        opts.complete ? "every judged topic" : "run ∩ judged"
      }); averaged: ${averaged}`,
    );
    if (run.duplicates) {
      lines.push(`# ${run.run}: ${run.duplicates} repeated documents dropped (best-ranked kept)`);
    }
    if (run.unjudgedTopics.length) {
      lines.push(
        `# ${run.run}: ${run.unjudgedTopics.length} run topics have no judgments (ignored)`,
      );
    }
    const skipped = result.skipped.filter((s) => s.run === run.run);
    const reasons = new Map<string, number>();
    for (const s of skipped) {
      reasons.set(`${s.measure}: ${s.reason}`, (reasons.get(`${s.measure}: ${s.reason}`) ?? 0) + 1);
    }
    for (const [reason, n] of reasons) {
      lines.push(`# ${run.run}: ${n} topics left out of ${reason}`);
    }
  }
  if (result.unparseableRatings) {
    lines.push(`# ${result.unparseableRatings} unparseable ratings (-1) counted as 0`);
  }
  if (opts.measures.some((m) => m.name === "Den")) {
    lines.push(`# tokens counted with the ${opts.tokenizer} tokenizer`);
  }
  return lines;
}

/**
 * Footer lines for runs whose top k holds unjudged documents (k: largest cutoff
 * asked, or 10), worded as `crux eval` words them (one writer:
 * `_eval_judged.ts`): `# bm25: judged@10 0.5440: 45.6% of the top 10 has no
 * judgment ...`, counting what a run retrieved when a topic has fewer than k.
 *
 * @param runs Run rows, one entry per run.
 * @param judged The judgments they were evaluated with.
 * @param opts Measures asked, `complete`, `order`.
 * @returns One line per run whose judged@k is below 1.
 */
export function judgedNotes(
  runs: Parameters<typeof evaluate>[0][],
  judged: Parameters<typeof evaluate>[2],
  opts: Pick<EvalOptions, "measures" | "complete" | "order">,
): string[] {
  const k = judgedDepth(opts);
  const prepared = "kind" in judged && judged.kind === "judged"
    ? judged as Judged
    : prepareJudged(judged as JudgedInputs);
  // Diversity qrels alone give no document-level judgments to count.
  if (!prepared.has.qrels) return [];
  return runs.flatMap((r) =>
    judgedFooter(
      evaluate(r, [`judged@${k}`], prepared, { complete: opts.complete, order: opts.order }),
      `judged@${k}`,
      k,
    )
  );
}

/**
 * The note saying what P* is when the relevance comes from ratings alone (no
 * selection's qrels): every rated passage of each topic, so the answerable
 * sub-questions of Cov and Den are those any rated passage answers, and an
 * `@oracle` cutoff takes as many passages as the topic has rated ones (a run
 * whose top |P*| holds what the rated passages cover scores 1). Printed by
 * `crux eval --judgments` without `--qrels` and `crux measure --relevance
 * judgments` alike, only when a measure depends on P*.
 *
 * @param measures The measures asked.
 * @param tau The answerability threshold.
 * @returns The note, or none.
 */
export function oracleSetNote(
  measures: readonly { name: string; cutoff?: unknown }[],
  tau: number,
): string[] {
  const depends = measures.some((m) =>
    m.name === "Cov" || m.name === "Den" || m.cutoff === "oracle"
  );
  if (!depends) return [];
  return [
    `# P* = every rated passage of each topic (ratings alone, not a selection): ` +
    `Cov's answerable sub-questions are those some rated passage answers at rating >= ${tau}, ` +
    `and @oracle takes as many passages as the topic has rated`,
  ];
}
