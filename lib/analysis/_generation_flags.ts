/** Notes on generated texts that are not reports; private to `@lib/analysis`. */
import { countGenerationFlags, describeGenerationFlags } from "@lib/generate/mod.ts";
import type { Condition, CruxData } from "./types.ts";
import { dataOracleSets } from "./_scores.ts";

/**
 * One note per condition whose generations include empty, number-only or
 * near-empty texts (budget = tokens of the topic's P*), e.g. "bm25: 3 empty of 10
 * reports ...". Empty when every generation looks like a report.
 */
export function generationFlagNotes(data: CruxData, conditions: readonly Condition[]): string[] {
  const budgets = new Map(
    [...dataOracleSets(data)].map((
      [t, ids],
    ) => [t, ids.reduce((s, id) => s + (data.tokens.get(id) ?? 0), 0)]),
  );
  const notes: string[] = [];
  for (const c of conditions) {
    if (!c.generation || c.kind === "oracle-result") continue;
    const gens = data.generations.filter((g) => g.run === c.generation && budgets.has(g.topicId));
    const counts = countGenerationFlags(
      gens.map((g) => ({ text: g.text, tokens: g.tokens ?? 0, budget: budgets.get(g.topicId) })),
    );
    const phrase = describeGenerationFlags(counts);
    if (phrase) {
      notes.push(
        `${c.label}: ${phrase} of ${gens.length} reports; such texts are not reports, so their ` +
          "Cov(y) and Den(y) say little.",
      );
    }
  }
  return notes;
}
