/**
 * One builder of rows for the measure table `measures`, shared by every writer.
 *
 * @module
 */
import type { MeasureRow } from "@lib/types/mod.ts";

/** Fields of a measure-table row; the rest take their defaults (see {@linkcode measureRow}). */
export interface MeasureRowFields<V extends number | null = number> {
  run: string;
  topicId: string;
  measure: string;
  method: string;
  value: V;
  /** Default: the measure itself (method measures have no parameters). */
  name?: string;
  /** Default: '' (no cutoff). */
  cutoff?: string;
  /** Default: ''. */
  judge?: string;
  /** Default: ''. */
  source?: string;
  /** Topics averaged, on aggregate rows. Default: null. */
  topics?: number | null;
  /** The topic set as `formatTopicSet` (lib/metrics) writes it. Default: null (none stated). */
  topicSet?: string | null;
}

/**
 * A row of `measures` with every column set: `name` defaults to the measure,
 * `cutoff`, `judge` and `source` to '', `topics` and `topicSet` to null. `value` may be null
 * where a method stores an undefined value as NULL (a correlation of too few runs).
 *
 * @param f The row's fields.
 * @returns The row, ready for `ws.upsert("measures", ...)`.
 * @example
 * ```ts
 * import { measureRow } from "@lib/store/mod.ts";
 * measureRow({ run: "rag", topicId: "all", measure: "KPR", method: "keypoints", value: 0.5, topics: 3 });
 * // { run: "rag", topicId: "all", measure: "KPR", name: "KPR", cutoff: "", method: "keypoints",
 * //   judge: "", source: "", value: 0.5, topics: 3, topicSet: null }
 * ```
 */
export function measureRow<V extends number | null = number>(
  f: MeasureRowFields<V>,
): Omit<MeasureRow, "value"> & { value: V; topics: number | null; topicSet: string | null } {
  return {
    run: f.run,
    topicId: f.topicId,
    measure: f.measure,
    name: f.name ?? f.measure,
    cutoff: f.cutoff ?? "",
    method: f.method,
    judge: f.judge ?? "",
    source: f.source ?? "",
    value: f.value,
    topics: f.topics ?? null,
    topicSet: f.topicSet ?? null,
  };
}
