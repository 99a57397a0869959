/**
 * Sliding-window listwise reranking of one candidate list, whatever ranks a window.
 *
 * @module
 */
import { listwiseWindows } from "./listwise_windows.ts";
import type { Permutation } from "./parse_permutation.ts";

/** What ranked one window: its order, or a failure that keeps the input order. */
export type WindowRanking = Permutation | { failed: string };

/** Options of {@link listwiseRerank}. */
export interface ListwiseOptions {
  /** Passages per window. Default 20. */
  window?: number;
  /** Step between windows. Default 10. */
  stride?: number;
  /** Passes over the list (each from the bottom up). Default 1. */
  passes?: number;
  /** Candidates reranked from the top; the rest keep their order below. Default 100. */
  depth?: number;
}

/** Per-query counts of a listwise rerank. */
export interface ListwiseCounts {
  /** Windows ranked (calls made or read from a cache). */
  calls: number;
  /** Identifiers missing from answers, appended in input order. */
  missing: number;
  /** Repeated identifiers dropped. */
  repeated: number;
  /** Unknown identifiers dropped. */
  unknown: number;
  /** Answers naming no identifier (window kept in input order). */
  unparsed: number;
  /** Windows whose ranking failed (window kept in input order). */
  failed: number;
  /** The first failure's reason, when any failed. */
  firstError?: string;
}

/** A reranked candidate list with its counts. */
export interface ListwiseResult<T> {
  ranked: T[];
  counts: ListwiseCounts;
}

/**
 * Reranks candidates with a listwise ranker over sliding windows (RankGPT,
 * Sun et al. 2023; RankZephyr): for each pass, the windows of
 * {@link listwiseWindows} over the top `depth` candidates, bottom first, each
 * ranked by `rankWindow` and rewritten in place in that order before the next
 * window is formed, so strong candidates climb to the top. Windows are ranked
 * one after another (each depends on the last). Candidates below `depth` keep
 * their order. A failed or unparsed window keeps its input order and is counted.
 *
 * @param candidates The first-stage ranking, best first.
 * @param rankWindow Ranks one window (its candidates in current order).
 * @param opts `window` (20), `stride` (10), `passes` (1), `depth` (100).
 * @returns The new ranking and per-query counts.
 * @throws {RangeError} On invalid options, or a ranking that is not a permutation of the window.
 * @example
 * ```ts
 * import { listwiseRerank } from "@lib/retrieval/mod.ts";
 * const byLength = (w: readonly string[]) =>
 *   Promise.resolve({
 *     order: [...w.keys()].sort((a, b) => w[b].length - w[a].length),
 *     parsed: true, missing: 0, repeated: 0, unknown: 0,
 *   });
 * const { ranked } = await listwiseRerank(["a", "ccc", "bb"], byLength, { window: 2, stride: 1 });
 * // ranked: ["ccc", "bb", "a"]
 * ```
 */
export async function listwiseRerank<T>(
  candidates: readonly T[],
  rankWindow: (window: readonly T[], at: { pass: number; start: number }) => Promise<WindowRanking>,
  opts: ListwiseOptions = {},
): Promise<ListwiseResult<T>> {
  const window = opts.window ?? 20;
  const stride = opts.stride ?? 10;
  const passes = opts.passes ?? 1;
  const depth = opts.depth ?? 100;
  if (!Number.isInteger(passes) || passes < 1) {
    throw new RangeError(`Listwise passes must be a positive integer, got ${passes}`);
  }
  if (!Number.isInteger(depth) || depth < 1) {
    throw new RangeError(`Listwise depth must be a positive integer, got ${depth}`);
  }
  const list = [...candidates];
  const n = Math.min(depth, list.length);
  const windows = listwiseWindows(n, window, stride);
  const counts: ListwiseCounts = {
    calls: 0,
    missing: 0,
    repeated: 0,
    unknown: 0,
    unparsed: 0,
    failed: 0,
  };
  for (let pass = 0; pass < passes; pass++) {
    for (const [start, end] of windows) {
      const slice = list.slice(start, end);
      const r = await rankWindow(slice, { pass, start });
      counts.calls++;
      if ("failed" in r) {
        counts.failed++;
        counts.firstError ??= r.failed;
        continue;
      }
      if (!r.parsed) {
        counts.unparsed++;
        continue;
      }
      const sorted = [...r.order].sort((a, b) => a - b);
      if (sorted.length !== slice.length || sorted.some((v, i) => v !== i)) {
        throw new RangeError(
          `Window ranking [${r.order.join(", ")}] is not a permutation of 0..${slice.length - 1}`,
        );
      }
      counts.missing += r.missing;
      counts.repeated += r.repeated;
      counts.unknown += r.unknown;
      r.order.forEach((pos, i) => (list[start + i] = slice[pos]));
    }
  }
  return { ranked: list, counts };
}
