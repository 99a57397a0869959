// Per-topic sub-question judgments for alpha-nDCG.

import { compareBytes } from "./_byte_order.ts";

/** Per-topic subtopic judgments for alpha-nDCG (binary; only relevant pairs are kept). */
export class DiversityTopic {
  /** Document id -> indices of the subtopics it is relevant to. */
  readonly docs: Map<string, Int32Array>;
  /** Number of subtopics at least one document is relevant to. */
  readonly subtopics: number;
  #ideal = new Map<number, Float64Array>();

  constructor(docs: Map<string, Int32Array>, subtopics: number) {
    this.docs = docs;
    this.subtopics = subtopics;
  }

  /**
   * Gains of the greedy ideal ranking (ndeval): at each step the document
   * with the largest novelty-discounted gain given those chosen; ties go to
   * the larger document id. One entry per relevant document.
   */
  idealGains(alpha: number): Float64Array {
    let gains = this.#ideal.get(alpha);
    if (gains) return gains;
    const ids = [...this.docs.keys()];
    const seen = new Int32Array(this.subtopics);
    const taken = new Uint8Array(ids.length);
    gains = new Float64Array(ids.length);
    for (let step = 0; step < ids.length; step++) {
      let best = -1;
      let bestGain = -1;
      for (let i = 0; i < ids.length; i++) {
        if (taken[i]) continue;
        const g = noveltyGain(this.docs.get(ids[i])!, seen, alpha);
        if (g > bestGain || (g === bestGain && compareBytes(ids[i], ids[best]) > 0)) {
          best = i;
          bestGain = g;
        }
      }
      taken[best] = 1;
      gains[step] = bestGain;
      for (const s of this.docs.get(ids[best])!) seen[s]++;
    }
    this.#ideal.set(alpha, gains);
    return gains;
  }
}

/** Gain of a document relevant to `subs` given how often each subtopic was already seen. */
export function noveltyGain(subs: Int32Array, seen: Int32Array, alpha: number): number {
  let g = 0;
  for (let j = 0; j < subs.length; j++) g += Math.pow(1 - alpha, seen[subs[j]]);
  return g;
}
