/**
 * Correlation between two measures (or a measure and human scores) over runs.
 *
 * @module
 */
import { meanTopicId } from "@lib/store/mod.ts";
import type { MetricRow } from "@lib/types/mod.ts";
import { kendallTau } from "./kendall_tau.ts";
import { spearman } from "./spearman.ts";
import { pearson } from "./pearson.ts";
import { mean } from "./_pairs.ts";

/** Options of {@linkcode systemCorrelation}. */
export interface SystemCorrelationOptions {
  /** `kendall` (tau-b), `spearman` or `pearson`. Default `kendall`. */
  method?: "kendall" | "spearman" | "pearson";
  /**
   * `system`: mean per run over the shared topics, then correlate across runs
   * (default); `topic`: correlate across runs within each topic, then average
   * (topics with an undefined correlation are skipped); `pairs`: correlate
   * every (run, topic) value.
   */
  level?: "system" | "topic" | "pairs";
}

const METHODS = { kendall: kendallTau, spearman, pearson };

/**
 * Correlates two sets of per-topic values (e.g. `Cov@oracle` against human
 * ratings). Only (run, topic) pairs present in both are used; `topicId` `all`
 * rows are ignored.
 *
 * @param a Per-topic rows of the first measure.
 * @param b Per-topic rows of the second measure.
 * @param opts `method` (default kendall), `level` (default system).
 * @returns The correlation, or NaN when undefined.
 * @throws {RangeError} When fewer than 2 values can be paired.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemCorrelation } from "@lib/metrics/mod.ts";
 * const row = (run: string, topicId: string, measure: string, value: number) =>
 *   ({ run, topicId, measure, value });
 * const covRows = [row("a", "t1", "Cov", 0.5), row("b", "t1", "Cov", 0.7), row("c", "t1", "Cov", 0.2)];
 * const humanRows = [row("a", "t1", "human", 3), row("b", "t1", "human", 4), row("c", "t1", "human", 1)];
 * assert.equal(systemCorrelation(covRows, humanRows, { method: "kendall" }), 1); // the same order of runs
 * ```
 */
export function systemCorrelation(
  a: readonly MetricRow[],
  b: readonly MetricRow[],
  opts: SystemCorrelationOptions = {},
): number {
  const correlate = METHODS[opts.method ?? "kendall"];
  const key = (r: MetricRow) => `${r.run}\u0000${r.topicId}`;
  const bValues = new Map(
    b.filter((r) => !meanTopicId.is(r.topicId)).map((r) => [key(r), r.value]),
  );
  const pairs = a.filter((r) => !meanTopicId.is(r.topicId) && bValues.has(key(r)))
    .map((r) => ({ run: r.run, topic: r.topicId, x: r.value, y: bValues.get(key(r))! }));
  const level = opts.level ?? "system";
  if (level === "pairs") return correlate(pairs.map((p) => p.x), pairs.map((p) => p.y));
  const group = (by: "run" | "topic") => {
    const out = new Map<string, typeof pairs>();
    for (const p of pairs) out.set(p[by], [...(out.get(p[by]) ?? []), p]);
    return out;
  };
  if (level === "system") {
    const runs = [...group("run").values()];
    return correlate(
      runs.map((g) => mean(g.map((p) => p.x))),
      runs.map((g) => mean(g.map((p) => p.y))),
    );
  }
  const values = [...group("topic").values()]
    .filter((g) => g.length >= 2)
    .map((g) => correlate(g.map((p) => p.x), g.map((p) => p.y)))
    .filter((v) => !Number.isNaN(v));
  return mean(values);
}
