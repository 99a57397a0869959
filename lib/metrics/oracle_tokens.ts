/**
 * tokens(P*): the total tokens of a topic's oracle set, the denominator of
 * every density and the length budget of generation.
 *
 * @module
 */

/** What {@linkcode oracleTokens} gives: the sum, and the first passage without a count. */
export interface OracleTokens {
  /** Sum of the token counts of P* that are known. */
  tokens: number;
  /** The first passage of P* (in the given order) without a token count; absent when all have one. */
  missing?: string;
}

/**
 * Sums the token counts of the oracle set P*. A passage without a count is
 * never a silent 0 for the caller: it is named in `missing` (density is then
 * left out, a budget refused).
 *
 * @param oracle Passage ids of P*.
 * @param tokens Token count of a passage, `undefined` when it has none (a map or a function).
 * @returns The sum over known counts and the first passage without one.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { oracleTokens } from "@lib/metrics/mod.ts";
 * assert.deepEqual(oracleTokens(["a", "b"], new Map([["a", 120], ["b", 80]])), { tokens: 200 });
 * assert.deepEqual(oracleTokens(["a", "c"], new Map([["a", 120]])), { tokens: 120, missing: "c" });
 * ```
 */
export function oracleTokens(
  oracle: Iterable<string>,
  tokens: ReadonlyMap<string, number> | ((id: string) => number | undefined),
): OracleTokens {
  const count = typeof tokens === "function" ? tokens : (id: string) => tokens.get(id);
  let sum = 0;
  let missing: string | undefined;
  for (const id of oracle) {
    const n = count(id);
    if (n === undefined) missing ??= id;
    else sum += n;
  }
  return missing === undefined ? { tokens: sum } : { tokens: sum, missing };
}
