/**
 * The statistics stage's arithmetic: each statistic a table asks for, computed
 * from the stored measure values of its inputs. Tables never compute these;
 * they read the stored rows (see `stored_statistic.ts`).
 *
 * @module
 */
import { formatStatisticKey, type StatisticKey, type StoredStatistic } from "@lib/store/mod.ts";
import { HOLM, holmStatistic } from "./_holm_statistic.ts";
import { pairedShape, STATISTIC_KINDS, tooFew } from "./_statistic_kinds.ts";

/**
 * A statistic a table shows, with the stored values of its inputs: what the
 * statistics stage computes and stores under `key`.
 */
export interface StatisticRequest {
  key: StatisticKey;
  /** The stored values of `key.x`, in order; null where none is stored. */
  x: readonly (number | null)[];
  /** The stored values of `key.y`, paired with `x`; null where none is stored. */
  y?: readonly (number | null)[];
  /** Why each input without a stored value has none (e.g. `bm25 Cov(y): ratings failed for topic t2`). */
  missing?: readonly string[];
}

/** The statistics {@linkcode computeStatistics} knows. */
export const STATISTICS: readonly string[] = [...Object.keys(STATISTIC_KINDS), HOLM];

/**
 * Computes each requested statistic from its inputs' stored values: Kendall's
 * tau-b or Pearson's r of the paired vectors (`kendall_tau_b`, `pearson_r`;
 * `kendall_tau_b_sampled` over the values of sampled contexts, its inputs named
 * as sets), the mean (`mean`) or the sample
 * standard deviation, n - 1 (`sd`) of the first; over the per-topic values of
 * one measure, the bounds of the percentile bootstrap interval of their mean
 * (`bootstrap_ci_lower` / `_upper`; parameters `samples` 1,000, `level` 0.95,
 * `seed` 1) and the two-sided paired t-test p against another measure's values on
 * the same topics (`paired_t_p`; 1 when the two are equal on every topic), the
 * mean of their differences x - y (`mean_diff`, defined over one topic too) and
 * the two-sided paired randomization test p (`randomization_p`; parameters
 * `trials` 10,000, `seed` 1); the Holm-adjusted p of one such test in its
 * family (`holm_p`: parameters `test`, the raw test, `family`, a JSON list of
 * the runs whose every pair i < j is tested, and the test's own parameters; `x`
 * and `y` name the pair; the family's raw tests must be requested too, and a
 * family test without a value does not count); and the rank of one input among
 * all (`rank`; parameters `position` and `order`). A statistic with an input that
 * has no stored value is absent (value null), with the inputs' reasons: never a
 * value over the other inputs. So is one that is undefined on its inputs (tau-b
 * or r of a constant vector, sd of one value), with why. Requests with the same key
 * (several tables showing one statistic) give one row.
 *
 * @param requests What the tables show.
 * @returns One stored statistic per distinct key, in request order.
 * @throws {RangeError} When a statistic is unknown, its vectors differ in length, or two
 *   requests of one key carry different values.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { computeStatistics } from "@lib/analysis/mod.ts";
 * const ref = (run: string, measure: string) => ({ run, source: "", judge: "", measure });
 * const runs = ["a", "b", "c"];
 * const [tau] = computeStatistics([{
 *   key: { statistic: "kendall_tau_b", x: runs.map((r) => ref(r, "P@10")),
 *     y: runs.map((r) => ref(r, "Cov")), topicSet: "all" },
 *   x: [0.1, 0.2, 0.3], y: [0.3, 0.2, 0.4],
 * }]);
 * assert.equal(tau.value, 1 / 3); // 2 concordant pairs, 1 discordant, no ties
 * ```
 */
export function computeStatistics(requests: readonly StatisticRequest[]): StoredStatistic[] {
  const out = new Map<string, { row: StoredStatistic; request: StatisticRequest }>();
  const holm: { id: string; request: StatisticRequest }[] = [];
  for (const r of requests) {
    const id = formatStatisticKey(r.key);
    const seen = out.get(id);
    if (seen) {
      if (JSON.stringify([seen.request.x, seen.request.y]) !== JSON.stringify([r.x, r.y])) {
        throw new RangeError(`Cannot compute statistic ${id}: two tables give it different inputs`);
      }
      continue;
    }
    // A Holm-adjusted p needs its whole family's raw p-values: computed once they all are.
    const row = r.key.statistic === HOLM
      ? { key: r.key, value: null, n: 0, reason: "" }
      : computeOne(r, id);
    out.set(id, { row, request: r });
    if (r.key.statistic === HOLM) holm.push({ id, request: r });
  }
  const raw = new Map([...out].map(([id, v]) => [id, v.row]));
  for (const h of holm) {
    out.set(h.id, { row: holmStatistic(h.request.key, raw), request: h.request });
  }
  return [...out.values()].map((v) => v.row);
}

function computeOne(r: StatisticRequest, id: string): StoredStatistic {
  const { key } = r;
  const kind = STATISTIC_KINDS[key.statistic];
  if (!kind) {
    throw new RangeError(
      `Cannot compute statistic ${id}: unknown statistic (known: ${STATISTICS.join(", ")})`,
    );
  }
  const paired = pairedShape(kind.shape);
  const sameLength = (a: readonly unknown[] | undefined, b: readonly unknown[]) =>
    a !== undefined && a.length === b.length;
  const shapeOk = {
    vector: r.x.length === key.x.length,
    paired: r.x.length === key.x.length,
    perTopic: key.x.length === 1,
    pairedPerTopic: key.x.length === 1,
    sampled: r.x.length === Number(key.params?.contexts),
  }[kind.shape] && (!paired || (sameLength(key.y, key.x) && sameLength(r.y, r.x)));
  if (!shapeOk) {
    throw new RangeError(`Cannot compute statistic ${id}: its inputs and values differ in length`);
  }
  const complete = r.x.filter((v, i) => v !== null && (!paired || r.y![i] !== null)).length;
  const absent = (reason: string): StoredStatistic => ({ key, value: null, n: complete, reason });
  if (complete < r.x.length) {
    const why = [...new Set(r.missing ?? [])];
    return absent(
      `${r.x.length - complete} of ${r.x.length} inputs have no stored value${
        why.length ? `: ${why.join("; ")}` : ""
      }`,
    );
  }
  const xs = r.x as number[];
  const n = xs.length;
  const least = kind.least ?? { n: 2, reason: tooFew };
  if (n < least.n) return absent(least.reason(n));
  let value: number | { absent: string };
  try {
    value = kind.compute(xs, (r.y ?? []) as number[], key.params ?? {});
  } catch (e) {
    if (e instanceof RangeError) {
      throw new RangeError(`Cannot compute statistic ${id}: ${e.message}`);
    }
    throw e;
  }
  return typeof value === "number" ? { key, value, n, reason: "" } : absent(value.absent);
}
