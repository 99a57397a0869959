/**
 * Private: the Holm-adjusted p-value of one test in a family of paired tests,
 * as the statistics stage stores it. The key names its family: the test
 * (`params.test`, e.g. `randomization_p`), the runs whose every pair is tested
 * (`params.family`, a JSON list of run names) and the test's own parameters
 * (the other params); the measure, judge and source are those of `x`.
 *
 * @module
 */
import { holmAdjust } from "@lib/metrics/mod.ts";
import { formatStatisticKey, type StatisticKey, type StoredStatistic } from "@lib/store/mod.ts";

/** The statistic of a Holm-adjusted p-value. */
export const HOLM = "holm_p";

/**
 * The keys of the raw tests of a Holm key's family, every pair (i < j) of its
 * runs in order, and the position of the key's own pair among them.
 *
 * @throws {RangeError} When the key does not name a family its pair belongs to.
 */
export function holmFamily(key: StatisticKey): { family: StatisticKey[]; at: number } {
  const id = formatStatisticKey(key);
  const fail = (why: string): never => {
    throw new RangeError(`Cannot compute statistic ${id}: ${why}`);
  };
  const { test, family, ...params } = key.params ?? {};
  if (typeof test !== "string" || !test) fail("params.test names no test");
  let runs: unknown;
  try {
    runs = JSON.parse(String(family));
  } catch {
    fail("params.family is not a JSON list of runs");
  }
  if (!Array.isArray(runs) || runs.some((r) => typeof r !== "string")) {
    return fail("params.family is not a JSON list of runs");
  }
  if (key.x.length !== 1 || key.y?.length !== 1) fail("x and y must name one measure each");
  const base = key.x[0];
  const i = runs.indexOf(key.x[0].run), j = runs.indexOf(key.y![0].run);
  if (i < 0 || j <= i) fail("its pair (x, y) is not a pair of params.family in order");
  const keys: StatisticKey[] = [];
  let at = -1;
  for (let a = 0; a < runs.length; a++) {
    for (let b = a + 1; b < runs.length; b++) {
      if (a === i && b === j) at = keys.length;
      keys.push({
        statistic: test as string,
        x: [{ ...base, run: runs[a] }],
        y: [{ ...base, run: runs[b] }],
        topicSet: key.topicSet,
        params,
      });
    }
  }
  return { family: keys, at };
}

/**
 * The Holm-adjusted p of `key` from the stored raw p-values of its family
 * (`raw`, by formatted key): absent when its own test is absent; a test of the
 * family without a value does not count in the family's size (as
 * `holmAdjust` treats NaN).
 *
 * @throws {RangeError} When a test of the family was not computed.
 */
export function holmStatistic(
  key: StatisticKey,
  raw: ReadonlyMap<string, StoredStatistic>,
): StoredStatistic {
  const { family, at } = holmFamily(key);
  const rows = family.map((k) => {
    const r = raw.get(formatStatisticKey(k));
    if (!r) {
      throw new RangeError(
        `Cannot compute statistic ${formatStatisticKey(key)}: the test ${
          formatStatisticKey(k)
        } of its family is not requested`,
      );
    }
    return r;
  });
  const own = rows[at];
  const tested = rows.filter((r) => r.value !== null).length;
  if (own.value === null) {
    return { key, value: null, n: tested, reason: `its test is absent: ${own.reason}` };
  }
  const adjusted = holmAdjust(rows.map((r) => r.value ?? NaN));
  return { key, value: adjusted[at], n: tested, reason: "" };
}
