// Per-topic CRUX data: the item x sub-question rating matrix and the oracle set.

import { answerableQuestions } from "./answerable_questions.ts";
import { oracleTokens } from "./oracle_tokens.ts";

/** Per-topic CRUX data: the item x sub-question rating matrix and the oracle set. */
export class CruxTopic {
  /** Item id -> ratings in question order (-1 already turned into 0). */
  readonly ratings: Map<string, Int8Array>;
  /** Judged passages of the topic in input order (reports excluded). */
  readonly passages: readonly string[];
  /** The oracle set P*. */
  readonly oracle: readonly string[];
  /** Number of sub-questions. */
  readonly questions: number;
  #answerable = new Map<string, Uint8Array>();
  #oracleTokens?: number;

  constructor(
    ratings: Map<string, Int8Array>,
    passages: readonly string[],
    oracle: readonly string[],
    questions: number,
  ) {
    this.ratings = ratings;
    this.passages = passages;
    this.oracle = oracle;
    this.questions = questions;
  }

  /**
   * Mask of the answerable sub-questions A: max over P* of G(p, q) >= tau, or
   * every sub-question when `filterByOracle` is false.
   */
  answerable(tau: number, filterByOracle: boolean): Uint8Array {
    const key = `${tau}|${filterByOracle}`;
    let mask = this.#answerable.get(key);
    if (!mask) {
      mask = new Uint8Array(this.questions);
      if (!filterByOracle) mask.fill(1);
      else {
        const rows = this.oracle.map((id) => this.ratings.get(id));
        answerableQuestions(rows, this.questions, { tau }).forEach((a, q) => a && (mask![q] = 1));
      }
      this.#answerable.set(key, mask);
    }
    return mask;
  }

  /** Mask of sub-questions some item among the first `k` of `items` rates >= tau. */
  coveredBy(items: readonly string[], k: number, tau: number): Uint8Array {
    const covered = new Uint8Array(this.questions);
    const n = Math.min(k, items.length);
    for (let i = 0; i < n; i++) {
      const row = this.ratings.get(items[i]);
      if (!row) continue;
      for (let q = 0; q < row.length; q++) if (row[q] >= tau) covered[q] = 1;
    }
    return covered;
  }

  /** Total tokens of P* under `tokens`, cached. */
  oracleTokens(tokens: (itemId: string) => number): number {
    this.#oracleTokens ??= oracleTokens(this.oracle, tokens).tokens;
    return this.#oracleTokens;
  }
}

/** Counts the set entries of `mask` (optionally only where `within` is set). */
export function countMask(mask: Uint8Array, within?: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] && (!within || within[i])) n++;
  return n;
}
