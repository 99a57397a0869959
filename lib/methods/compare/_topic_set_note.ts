/** The note stating the topic set the stored comparison ran over (private). */
import { readMeasures, type Workspace } from "@lib/store/mod.ts";

/**
 * The topic set of the stored comparison's correlations, as their rows (method
 * `compare`, topic `all`, run `<a>~<b>`, no source) state it, e.g. `scored(n=10)`; where no stored row
 * states one (a workspace written before topic sets were stored), the count of
 * topics of the answers every method scored in `topics`.
 */
export async function comparisonTopicSetNote(
  ws: Workspace,
  topics: readonly string[],
): Promise<string> {
  // The method pairs' rows: the system means per run (source `shared:<method>`) are over each run's topics.
  const rows = (await readMeasures(ws, { method: "compare", topicId: "all" })).filter((r) =>
    r.source === ""
  );
  const sets = [...new Set(rows.map((r) => r.topicSet ?? null))];
  return sets.length === 1 && sets[0] !== null
    ? `Correlations over the topic set ${
      sets[0]
    }: the topics of the answers every compared method scored.`
    : `Correlations over the ${topics.length} topics of the answers every compared method scored.`;
}
