/**
 * Test data with the statistics the statistics stage would store for it: the
 * requests of the given tables, computed by `computeStatistics`.
 *
 * @module
 */
import { computeStatistics } from "../compute_statistics.ts";
import type { Analysis, CruxData } from "../types.ts";

/** `data` with `statistics` computed from what `tables(data)` asks for. */
export function withStatistics<D extends CruxData>(data: D, tables: (d: D) => Analysis[]): D {
  return {
    ...data,
    statistics: computeStatistics(tables(data).flatMap((a) => a.statistics ?? [])),
  };
}
