/**
 * The identity of a stored measure value: a typed key (method, measure with its
 * parameters and cutoff, source, judge, topic set) with one formatter
 * ({@linkcode formatMeasureKey}: the columns of `measures`, and the whole key as
 * one string in `key`) and one parser back ({@linkcode parseMeasureKey}: from
 * the columns or from that string); and the stored names of the answer-level
 * CRUX values ({@linkcode answerMeasureName}), which report judging writes and
 * the analyses look up.
 *
 * The spelling rule of a stored name, one for every measure and source: every
 * parameter whose value differs from the measure's declared default in the
 * registry (a constant of the workbench, never a configuration value such as
 * `construct.tau`) is written, and only those (`formatMeasure` without
 * command-wide defaults). So `Cov` means tau 3 in every workspace, judging at
 * tau 4 stores `Cov(tau=4)`, and Den is `Den` at w 0.5 whether it is of a
 * ranking, a context or a report.
 *
 * The whole key as one string is its five fields joined by `|` -
 * `method|measure|source|judge|topics`, e.g.
 * `crux|Cov@10|ranking(tau=3)|human|answerable(tau=3,n=49)` - with `%` and `|`
 * inside the first four fields written `%25` and `%7C`; the topic set is
 * written by `formatTopicSet` (`topic_set.ts`), which escapes its topic id itself.
 *
 * @module
 */
import type { Measure, ParamValue } from "./measure.ts";
import { formatMeasure } from "./format_measure.ts";
import { parseMeasure } from "./parse_measure.ts";
import { defaultRegistry } from "./default_registry.ts";
import { formatTopicSet, parseTopicSet, type TopicSet } from "./topic_set.ts";

/** What identifies a stored measure value, apart from its run. */
export interface MeasureKey {
  /** Evaluation method (`trec`, `crux`, `nuggets`, ...). */
  method: string;
  /**
   * The measure with every parameter it was computed with (every declared
   * parameter written out, as {@linkcode parseMeasureKey} gives it);
   * unregistered names have none.
   */
  measure: Measure;
  /** Relevance or item source (`selection`, `report`, `contexts(tau=3)`, ...), '' where none applies. */
  source: string;
  /** Judge whose labels produced the value, '' where none applies. */
  judge: string;
  /** The topics the value is over: one topic, or a stated set (see `TopicSet`). */
  topics: TopicSet;
}

/** The key columns of a row of `measures`, and the whole key as one string. */
export interface MeasureKeyColumns {
  /** The canonical measure string (`Cov(tau=4)@10`). */
  measure: string;
  /** The measure's name without parameters or cutoff. */
  name: string;
  /** The cutoff as written, '' for none. */
  cutoff: string;
  method: string;
  source: string;
  judge: string;
  /** The topic set as written (`answerable(tau=3,n=49)`, `topic(id=t1)`). */
  topicSet: string;
  /** The whole key: `method|measure|source|judge|topicSet`, each field escaped. */
  key: string;
}

/** `%` and `|` of a field as `%25` and `%7C`, so the fields split back. */
const escapeField = (s: string) => s.replaceAll("%", "%25").replaceAll("|", "%7C");

function unescapeField(s: string, whole: string): string {
  if (/%(?!25|7C)/.test(s)) {
    throw new SyntaxError(
      `Cannot read measure key "${whole}": inside a field "%" is written %25 and "|" %7C`,
    );
  }
  return s.replaceAll("%7C", "|").replaceAll("%25", "%");
}

/**
 * The columns of a measure key and the key as one string: the measure string
 * by the canonical rule (see the module comment); a measure the registry does
 * not hold (`KPR`, `strict_vital`) is written as its name.
 *
 * @param key The key.
 * @returns The columns, and `key`, the one string.
 * @throws {RangeError} For a topic set that cannot be written (see `formatTopicSet`).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMeasureKey } from "@lib/metrics/measure_key.ts";
 * const key = { method: "crux", source: "report", judge: "j", topics: { kind: "answerable", tau: 4, n: 49 } } as const;
 * const cols = formatMeasureKey({ ...key, measure: { name: "Cov", params: { tau: 4 } } });
 * assert.equal(cols.measure, "Cov(tau=4)");
 * assert.equal(cols.key, "crux|Cov(tau=4)|report|j|answerable(tau=4,n=49)");
 * assert.equal(formatMeasureKey({ ...key, measure: { name: "Cov", params: { tau: 3 } } }).measure, "Cov");
 * ```
 */
export function formatMeasureKey(key: MeasureKey): MeasureKeyColumns {
  const m = key.measure;
  const known = defaultRegistry().get(m.name) !== undefined;
  const measure = known ? formatMeasure(m) : m.name;
  const topicSet = formatTopicSet(key.topics);
  return {
    measure,
    name: m.name,
    cutoff: m.cutoff === undefined ? "" : String(m.cutoff),
    method: key.method,
    source: key.source,
    judge: key.judge,
    topicSet,
    // The topic set holds no `|` (its topic id is escaped by its own rule).
    key: [...[key.method, measure, key.source, key.judge].map(escapeField), topicSet].join("|"),
  };
}

/** The measure of a stored name with every declared parameter written out. */
function fullMeasure(text: string): Measure {
  const registry = defaultRegistry();
  try {
    const parsed = parseMeasure(text, { registry });
    const def = registry.require(parsed.name);
    const params: Record<string, ParamValue> = {};
    for (const [k, spec] of Object.entries(def.params)) {
      params[k] = parsed.params[k] ?? spec.default;
    }
    return { ...parsed, params };
  } catch {
    return { name: text, params: {} };
  }
}

/**
 * The measure key of a stored row, or of the one string `formatMeasureKey`
 * writes (`key`): the measure string parsed with every parameter written out
 * (declared defaults filled in), so keys of one value compare equal however it
 * was spelled. For every key `k` whose measure has every declared parameter,
 * `parseMeasureKey(formatMeasureKey(k).key)` equals `k`; for every string `s`
 * `formatMeasureKey` writes, `formatMeasureKey(parseMeasureKey(s)).key === s`.
 *
 * @param row The key columns of a stored row (`measure`, `method`, `source`,
 *   `judge`, `topicSet`), or the key as one string.
 * @returns The key.
 * @throws {SyntaxError} For a string without five fields, a field badly
 *   escaped, or a topic set that does not parse (see `parseTopicSet`).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMeasureKey } from "@lib/metrics/measure_key.ts";
 * const k = parseMeasureKey("crux|Cov@10|selection|j|answerable(tau=3,n=49)");
 * assert.deepEqual(k.measure, { name: "Cov", params: { tau: 3, filter_by_oracle: true }, cutoff: 10 });
 * assert.deepEqual(k.topics, { kind: "answerable", tau: 3, n: 49 });
 * ```
 */
export function parseMeasureKey(
  row:
    | string
    | { measure: string; method: string; source: string; judge: string; topicSet: string },
): MeasureKey {
  if (typeof row === "string") {
    const fields = row.split("|");
    if (fields.length !== 5) {
      throw new SyntaxError(
        `Cannot read measure key "${row}": expected method|measure|source|judge|topics, got ${fields.length} field(s)`,
      );
    }
    const [method, measure, source, judge] = fields.slice(0, 4).map((f) => unescapeField(f, row));
    const topicSet = fields[4];
    return parseMeasureKey({ method, measure, source, judge, topicSet });
  }
  return {
    method: row.method,
    measure: fullMeasure(row.measure),
    source: row.source,
    judge: row.judge,
    topics: parseTopicSet(row.topicSet),
  };
}

/**
 * The stored name of an answer-level CRUX value (Cov(y), Den(y) of reports,
 * and of the contexts reports were written from) at threshold `tau` and
 * density exponent `w`: report judging writes these names and the analyses
 * look them up with this function. The canonical rule of every stored name:
 * a parameter is written exactly when it differs from the registry's declared
 * default (tau 3, w 0.5), so Den of answers is spelled as Den of contexts.
 *
 * @param name `Cov` or `Den`.
 * @param tau The answerability threshold the value was computed at.
 * @param w The density exponent (Den only).
 * @returns The measure string.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerMeasureName } from "@lib/metrics/measure_key.ts";
 * assert.equal(answerMeasureName("Cov", 3, 0.5), "Cov");
 * assert.equal(answerMeasureName("Cov", 4, 0.5), "Cov(tau=4)");
 * assert.equal(answerMeasureName("Den", 3, 0.5), "Den");
 * assert.equal(answerMeasureName("Den", 4, 1), "Den(tau=4,w=1)");
 * ```
 */
export function answerMeasureName(name: "Cov" | "Den", tau: number, w: number): string {
  return formatMeasure({ name, params: name === "Cov" ? { tau } : { tau, w } });
}
