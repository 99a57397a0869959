/** Notes naming the conditions without a value (private). */
import type { Condition } from "./types.ts";
import { appliesTo as applies, MAIN_MEASURES } from "./_condition_scores.ts";
import { LABELS } from "./_scores.ts";

/**
 * Notes naming, per measure (and dataset when there are several), the
 * conditions without a value: the table leaves their cells empty and the
 * Kendall τ of the pipelines is over the others. With `reason`, each
 * condition is followed by why it has no value, e.g. `bm25 (no report for topic t2; re-run to retry)`.
 */
export function missingValueNotes(
  conditions: readonly Condition[],
  datasets: readonly string[],
  has: (dataset: string, c: Condition, measure: string) => boolean,
  measures: readonly string[] = MAIN_MEASURES,
  reason?: (dataset: string, c: Condition, measure: string) => string | undefined,
): string[] {
  const notes: string[] = [];
  for (const d of datasets) {
    for (const m of measures) {
      const none = conditions.filter((c) => applies(c, m) && !has(d, c, m)).map((c) => {
        const why = reason?.(d, c, m);
        return why ? `${c.label} (${why})` : c.label;
      });
      if (none.length) {
        notes.push(
          `No value of ${LABELS[m]}${datasets.length > 1 ? ` on ${d}` : ""}: ${none.join(", ")}.`,
        );
      }
    }
  }
  return notes;
}
