/** The note stating the topic set of a table's means (private). */
import { LABELS } from "./_scores.ts";

/**
 * The topic set the means are over, as their stored rows state it, per column
 * (`answerable(tau=3,n=49)`: the topics with a sub-question answerable at 3;
 * `judged(n=50)`: the judged topics); where a stored row states none (a
 * workspace written before topic sets were stored) or several datasets split
 * the means, the counts of topics averaged.
 */
export function meansTopicSetNote(
  means: ReadonlyMap<string, { topicSet?: string }>,
  datasets: number,
  counts: readonly number[],
  lead = "Means over",
): string[] {
  const entries = [...means];
  if (datasets === 1 && entries.length && entries.every(([, m]) => m.topicSet)) {
    const columns = new Map<string, Set<string>>();
    for (const [k, m] of entries) {
      const measure = k.split("\u0000")[2] as keyof typeof LABELS;
      const set = columns.get(m.topicSet!) ?? new Set<string>();
      columns.set(m.topicSet!, set.add(LABELS[measure]));
    }
    const list = [...columns].map(([s, labels]) =>
      columns.size > 1 ? `${s} (${[...labels].join(", ")})` : s
    );
    return [`${lead} the topic set ${list.join("; ")}.`];
  }
  if (!counts.length) return [];
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return [lo === hi ? `Mean over ${lo} topics.` : `Mean over ${lo} to ${hi} topics per cell.`];
}
