/**
 * Cov(y) and Den(y): the coverage and density of one text judged directly
 * against its topic's answerable sub-questions, the one definition the report
 * judge, the analyses and {@linkcode reportCoverage} use.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "./crux_defaults.ts";

/** What {@link coverageScores} needs for one text (a generated report or a retrieval context). */
export interface CoverageInput {
  /** Question id -> rating 0-5 of the text (-1 = unparseable, counted as 0); missing = 0. */
  ratings: ReadonlyMap<string, number>;
  /** The answerable sub-questions A of the topic. */
  answerable: readonly string[];
  /** Tokens of the text (Llama-3.1 by default). */
  tokens: number;
  /** Tokens of the oracle context P*. */
  oracleTokens: number;
  /** Coverage of P* itself. Default 1 (A is defined by P*, so P* covers all of A). */
  oracleCoverage?: number;
}

/** Options of {@link coverageScores}. */
export interface CoverageOptions {
  /** Rating at which a question counts as answered. Default 3. */
  tau?: number;
  /** Density exponent. Default 0.5 (CRUX paper tables; the original code used 1). */
  w?: number;
}

/** Coverage and density of one text; `null` when the topic has no answerable question. */
export interface CoverageScores {
  /** Cov = |{q in A : G(y, q) >= tau}| / |A|. */
  coverage: number | null;
  /** Den = [(Cov / tokens) / (Cov(P*) / tokens(P*))]^w; not capped at 1. */
  density: number | null;
  /** Answerable questions the text answers, in `answerable` order. */
  covered: string[];
  /** How many answerable questions had an unparseable (-1) rating. */
  unparseable: number;
}

/**
 * CRUX coverage Cov(y) and density Den(y) of a text judged directly against
 * the topic's answerable sub-questions (CRUX, Ju et al., 2025):
 * Cov = share of A rated >= tau; Den = ((Cov/tokens(y)) / (Cov(P*)/tokens(P*)))^w
 * with the text's own token count. A text of 0 tokens has density 0.
 *
 * @param input Ratings of the text, answerable set and token counts.
 * @param opts `tau` (default 3), `w` (default 0.5).
 * @returns Coverage, density, covered question ids and the count of -1 ratings.
 * @throws {RangeError} When `oracleTokens` is not positive while A is not empty.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { coverageScores } from "@lib/metrics/mod.ts";
 * const s = coverageScores({
 *   ratings: new Map([["q1", 5], ["q2", 2], ["q3", 4]]),
 *   answerable: ["q1", "q2", "q3", "q4"],
 *   tokens: 100, oracleTokens: 400,
 * });
 * assert.equal(s.coverage, 0.5);
 * assert.ok(Math.abs(s.density! - Math.SQRT2) < 1e-12); // ((0.5/100)/(1/400))^0.5 = 2^0.5
 * ```
 */
export function coverageScores(input: CoverageInput, opts: CoverageOptions = {}): CoverageScores {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const covered: string[] = [];
  let unparseable = 0;
  for (const q of input.answerable) {
    const r = input.ratings.get(q) ?? 0;
    if (r === -1) unparseable++;
    if (r >= tau) covered.push(q);
  }
  if (input.answerable.length === 0) return { coverage: null, density: null, covered, unparseable };
  if (!(input.oracleTokens > 0)) {
    throw new RangeError(
      `Cannot compute density: the oracle context has ${input.oracleTokens} tokens; P* must be non-empty with token counts`,
    );
  }
  const coverage = covered.length / input.answerable.length;
  const oracleCoverage = input.oracleCoverage ?? 1;
  const density = input.tokens > 0 && coverage > 0
    ? Math.pow((coverage / input.tokens) / (oracleCoverage / input.oracleTokens), w)
    : 0;
  return { coverage, density, covered, unparseable };
}
