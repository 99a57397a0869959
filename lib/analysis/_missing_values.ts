/** Notes naming the conditions without a value (private). */
import type { Condition } from "./types.ts";
import { MAIN_MEASURES } from "./_condition_scores.ts";
import { LABELS } from "./_scores.ts";

/** Which measures a condition can have: contexts for pipelines and P*, reports for all but P* without reports. */
function applies(c: Condition, measure: string): boolean {
  const context = measure === "covZ" || measure === "andcg" || measure === "denZ";
  return context
    ? c.kind === "pipeline" || c.kind === "oracle-context"
    : c.generation !== undefined;
}

/**
 * Notes naming, per measure (and dataset when there are several), the
 * conditions without a value: the table leaves their cells empty and the
 * Kendall τ of the pipelines is over the others.
 */
export function missingValueNotes(
  conditions: readonly Condition[],
  datasets: readonly string[],
  has: (dataset: string, c: Condition, measure: string) => boolean,
  measures: readonly string[] = MAIN_MEASURES,
): string[] {
  const notes: string[] = [];
  for (const d of datasets) {
    for (const m of measures) {
      const none = conditions.filter((c) => applies(c, m) && !has(d, c, m)).map((c) => c.label);
      if (none.length) {
        notes.push(
          `No value of ${LABELS[m]}${datasets.length > 1 ? ` on ${d}` : ""}: ${none.join(", ")}.`,
        );
      }
    }
  }
  return notes;
}
