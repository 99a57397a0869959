/**
 * The comparison as the tables show it: each method's mean per run, the run's
 * count of answers every method scored, and each method pair's runs, read from
 * the compare stage's stored rows wherever they are stored.
 *
 * @module
 */
import type { MethodComparison } from "@lib/metrics/mod.ts";
import type { StoredCompareRow } from "./cells.ts";
import { systemMeanKey, type SystemMeanMethod } from "./system_mean_key.ts";

/**
 * The comparison with its system means, their topics and the pairs' runs
 * replaced by the stored `compare` rows (see `compareRows`) where stored; the
 * rest (a workspace whose compare stage has not run) as computed from the
 * stored scores.
 *
 * @param c The comparison.
 * @param methods The compared methods (judge and headline measure).
 * @param stored The stored `compare` rows of topic `all`.
 * @returns The comparison the tables show.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storedComparison } from "@lib/methods/compare/stored_comparison.ts";
 * const c = {
 *   methods: ["crux"], runs: ["rag"], left: 0,
 *   system: [{ run: "rag", topics: 3, values: { crux: 0.5 } }],
 *   correlations: [], topicCorrelations: [], disagreements: [],
 * };
 * const m = { method: "crux", judge: "j", measure: "Cov" };
 * const row = { run: "rag", source: "shared:crux", judge: "j", measure: "Cov", value: 0.25, topics: 2 };
 * assert.deepEqual(storedComparison(c, [m], [row]).system[0], { run: "rag", topics: 2, values: { crux: 0.25 } });
 * ```
 */
export function storedComparison<C extends MethodComparison>(
  c: C,
  methods: readonly SystemMeanMethod[],
  stored: readonly StoredCompareRow[],
): C {
  const byKey = new Map(
    stored.map((r) => [[r.run, r.source, r.judge, r.measure].join("\u0000"), r]),
  );
  const find = (k: { run: string; source: string; judge: string; measure: string }) =>
    byKey.get([k.run, k.source, k.judge, k.measure].join("\u0000"));
  const judge = new Map(methods.map((m) => [m.method, m.judge]));
  return {
    ...c,
    system: c.system.map((s) => {
      const rows = methods.map((m) => find(systemMeanKey(s.run, m)));
      const counted = rows.find((r) => r && r.topics !== null);
      return {
        ...s,
        topics: counted ? counted.topics! : s.topics,
        values: Object.fromEntries(
          Object.entries(s.values).map(([m, v]) => {
            const r = rows[methods.findIndex((x) => x.method === m)];
            return [m, r ? r.value : v];
          }),
        ),
      };
    }),
    correlations: c.correlations.map((k) => {
      const r = find({
        run: `${k.a}~${k.b}`,
        source: "",
        judge: `${judge.get(k.a) ?? ""}~${judge.get(k.b) ?? ""}`,
        measure: "runs",
      });
      return r && r.value !== null ? { ...k, runs: r.value } : k;
    }),
  };
}
