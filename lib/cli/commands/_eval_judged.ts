/**
 * `crux eval`'s judged@k footer (private to the command): how much of each
 * run's top k has a judgment, counting what the run retrieved when a topic has
 * fewer than k documents.
 *
 * @module
 */
import type { EvaluationResult } from "@lib/metrics/evaluate.ts";
import type { EvalOptions } from "./_eval_options.ts";

/** The largest cutoff asked (10 when none): the depth of the judged@k note. */
export function judgedDepth(opts: Pick<EvalOptions, "measures">): number {
  const cutoffs = opts.measures.map((m) => m.cutoff).filter((c): c is number =>
    typeof c === "number"
  );
  return cutoffs.length ? Math.max(...cutoffs) : 10;
}

/**
 * Footer lines for runs whose top k holds unjudged documents, read from the
 * judged@k rows of `result`; when a run retrieved fewer than k documents for a
 * topic, the note counts what it retrieved rather than k.
 */
export function judgedFooter(result: EvaluationResult, key: string, k: number): string[] {
  const out: string[] = [];
  for (const run of result.runs) {
    const value = run.aggregate[key];
    if (value === undefined || Number.isNaN(value) || value >= 1) continue;
    let judgedDocs = 0;
    let topDocs = 0;
    let short = 0;
    for (const row of result.perTopic) {
      if (row.run !== run.run || row.measure !== key) continue;
      const retrieved = run.retrieved?.[row.topicId] ?? k;
      judgedDocs += row.value * k;
      topDocs += Math.min(k, retrieved);
      if (retrieved < k) short++;
    }
    const base = `# ${run.run}: judged@${k} ${value.toFixed(4)}: `;
    if (!short) {
      out.push(
        base + `${((1 - value) * 100).toFixed(1)}% of the top ${k} has no judgment ` +
          "(counted non-relevant, rated 0)",
      );
      continue;
    }
    const topics = run.counts[key];
    const unjudged = topDocs ? ((1 - Math.round(judgedDocs) / topDocs) * 100).toFixed(1) : "0.0";
    out.push(
      base +
        `${short} of ${topics} topics have fewer than ${k} documents, ${
          (topDocs / Math.max(topics, 1)).toFixed(1)
        } retrieved per topic in the top ${k} (judged@${k} divides by ${k}); ${unjudged}% of ` +
        "the retrieved ones have no judgment (counted non-relevant, rated 0)",
    );
  }
  return out;
}

/** Drops the rows of measure `key` (evaluated for the notes only) from `result`. */
export function dropMeasure(result: EvaluationResult, key: string): void {
  result.measures = result.measures.filter((m) => m !== key);
  result.perTopic = result.perTopic.filter((r) => r.measure !== key);
  result.aggregates = result.aggregates.filter((r) => r.measure !== key);
  result.skipped = result.skipped.filter((r) => r.measure !== key);
  for (const run of result.runs) {
    delete run.aggregate[key];
    delete run.counts[key];
  }
}
