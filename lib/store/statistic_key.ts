/**
 * The identity of a stored statistic: a typed key (the statistic, the measure
 * keys of its inputs, their topic set and its parameters) with one formatter
 * into the `key` column of `statistics` ({@linkcode formatStatisticKey}) and one
 * parser back ({@linkcode parseStatisticKey}).
 *
 * @module
 */

/** A stored measure value an input of a statistic reads: its row of `measures` but the topic. */
export interface MeasureRef {
  run: string;
  source: string;
  judge: string;
  measure: string;
}

/** What identifies a statistic computed from stored measure values. */
export interface StatisticKey {
  /** The statistic: `kendall_tau_b`, `mean`, `sd` (sample, n - 1), ... */
  statistic: string;
  /** The inputs of the first vector, in order (e.g. each pipeline's context Cov). */
  x: readonly MeasureRef[];
  /** The inputs of the second vector of a correlation, paired with `x` by position. */
  y?: readonly MeasureRef[];
  /**
   * The topic set of the inputs' values: `all` (the stored run means over the
   * experiment's topic set) or `all:<dataset>` (the means of one dataset's topics).
   */
  topicSet: string;
  /** Parameters of the statistic (e.g. a threshold the inputs share). Default none. */
  params?: Readonly<Record<string, string | number>>;
}

const REF_FIELDS = ["run", "source", "judge", "measure"] as const;

/**
 * The `key` column of a statistic: canonical JSON (fields in a fixed order,
 * parameters by name), so equal keys give equal strings.
 *
 * @param key The key.
 * @returns The key string.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatStatisticKey } from "@lib/store/mod.ts";
 * const ref = (run: string) => ({ run, source: "report", judge: "j", measure: "Cov" });
 * assert.equal(
 *   formatStatisticKey({ statistic: "mean", x: [ref("a")], topicSet: "all" }),
 *   '{"statistic":"mean","params":{},"topicSet":"all","x":[["a","report","j","Cov"]]}',
 * );
 * ```
 */
export function formatStatisticKey(key: StatisticKey): string {
  const refs = (xs: readonly MeasureRef[]) => xs.map((r) => REF_FIELDS.map((f) => r[f]));
  const params = Object.fromEntries(
    Object.entries(key.params ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return JSON.stringify({
    statistic: key.statistic,
    params,
    topicSet: key.topicSet,
    x: refs(key.x),
    ...(key.y ? { y: refs(key.y) } : {}),
  });
}

/**
 * The typed key of a `key` column written by {@linkcode formatStatisticKey}.
 *
 * @param text The key string.
 * @returns The key.
 * @throws {SyntaxError} When the text is not a formatted statistic key, naming what is wrong.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatStatisticKey, parseStatisticKey } from "@lib/store/mod.ts";
 * const key = { statistic: "sd", x: [{ run: "a", source: "", judge: "", measure: "P@10" }], topicSet: "all" };
 * assert.deepEqual(parseStatisticKey(formatStatisticKey(key)), { ...key, params: {} });
 * ```
 */
export function parseStatisticKey(text: string): StatisticKey {
  const fail = (why: string): never => {
    throw new SyntaxError(`Cannot read statistic key ${JSON.stringify(text)}: ${why}`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    fail("it is not JSON");
  }
  const o = raw as Record<string, unknown>;
  if (typeof o !== "object" || o === null) return fail("it is not an object");
  if (typeof o.statistic !== "string") fail('field "statistic" is not a string');
  if (typeof o.topicSet !== "string") fail('field "topicSet" is not a string');
  const params = o.params ?? {};
  if (
    typeof params !== "object" || params === null ||
    Object.values(params).some((v) => typeof v !== "string" && typeof v !== "number")
  ) fail('field "params" is not an object of strings and numbers');
  const refs = (field: string, v: unknown): MeasureRef[] => {
    if (!Array.isArray(v)) return fail(`field "${field}" is not a list`);
    return v.map((r, i) => {
      if (!Array.isArray(r) || r.length !== 4 || r.some((s) => typeof s !== "string")) {
        fail(`field "${field}" item ${i + 1} is not [run, source, judge, measure]`);
      }
      return { run: r[0], source: r[1], judge: r[2], measure: r[3] };
    });
  };
  return {
    statistic: o.statistic as string,
    params: params as Record<string, string | number>,
    topicSet: o.topicSet as string,
    x: refs("x", o.x),
    ...(o.y !== undefined ? { y: refs("y", o.y) } : {}),
  };
}
