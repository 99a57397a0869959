/**
 * Offline entailment of key points by lexical overlap, with a negation heuristic.
 *
 * @module
 */
import { splitSentences } from "@lib/text/mod.ts";
import { negated, termSet } from "./_text.ts";
import type { EntailmentJudge, EntailmentResult } from "./types.ts";

/**
 * The offline entailment judge (labelled `offline-lexical`). For each key point
 * it finds the response sentence holding the largest share of the key point's
 * analysed terms (stemmed, stop words removed). At least `threshold` of them:
 * `yes`, unless exactly one of the two has a negation word (not, never, no,
 * ...-n't, ...), which makes it `no` (does not entail), or `contradicts` when
 * `contradiction` asks for that separate label; below: `neutral`. The reason
 * gives the share, the snippet the sentence.
 *
 * @param opts `threshold` (default 0.6), `contradiction` (default false).
 * @returns A judge.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lexicalEntailer } from "@lib/keypoints/mod.ts";
 * const j = lexicalEntailer();
 * const [a, b] = await j.judge([
 *   { id: "1", keypoint: "The bridge opened in 1932.", response: "Built fast, the bridge opened in 1932." },
 *   { id: "2", keypoint: "The bridge opened in 1932.", response: "The bridge never opened in 1932." },
 * ]);
 * assert.deepEqual([a.label, b.label], ["yes", "no"]);
 * ```
 */
export function lexicalEntailer(
  opts: { threshold?: number; contradiction?: boolean } = {},
): EntailmentJudge {
  const threshold = opts.threshold ?? 0.6;
  return {
    name: "offline-lexical",
    judge(pairs) {
      const sentences = new Map<string, { text: string; terms: Set<string> }[]>();
      return Promise.resolve(pairs.map((p): EntailmentResult => {
        let list = sentences.get(p.response);
        if (!list) {
          list = splitSentences(p.response).map((text) => ({ text, terms: termSet(text) }));
          sentences.set(p.response, list);
        }
        const terms = [...termSet(p.keypoint)];
        let best = { share: 0, text: "" };
        for (const s of list) {
          const share = terms.length
            ? terms.filter((t) => s.terms.has(t)).length / terms.length
            : 0;
          if (share > best.share) best = { share, text: s.text };
        }
        const pct = `${Math.round(best.share * 100)}% of the key point's terms in one sentence`;
        if (best.share < threshold) {
          return { id: p.id, label: "neutral", status: "ok", reason: pct, snippet: best.text };
        }
        const flip = negated(p.keypoint) !== negated(best.text);
        return {
          id: p.id,
          label: flip ? (opts.contradiction ? "contradicts" : "no") : "yes",
          status: "ok",
          reason: flip ? `${pct}, negated in one of them` : pct,
          snippet: best.text,
        };
      }));
    },
  };
}
