/**
 * The offline backend of the nugget steps, for demos and tests without a model
 * service: salient clauses as nuggets, importance by frequency across the
 * passages, assignment by lexical support. Every output names it `offline`.
 *
 * @module
 */
import { analyze, ENGLISH_STOP_WORDS, splitSentences } from "@lib/text/mod.ts";
import type { NuggetBackend } from "./types.ts";

/** Options of {@linkcode offlineNuggetBackend}. */
export interface OfflineNuggetOptions {
  /** Share of a nugget's content words an answer must contain for `support`. Default 0.75. */
  support?: number;
  /** Share for `partial_support` (the partial band is [partial, support)). Default 0.4. */
  partial?: number;
  /** Share of the relevant passages (each holding >= 60% of its content words) that makes a nugget vital. Default 0.25. */
  vitalShare?: number;
}

const MAX_WORDS = 12;
const uniq = (xs: string[]) => [...new Set(xs)];

/**
 * Clauses of a passage: sentences cut at semicolons, colons and dashes (each
 * part a main clause), without lower-case fragments and parts under 4 words.
 */
function clauses(text: string): string[] {
  return splitSentences(text)
    .flatMap((s) => s.split(/;|:\s|\s[-\u2013\u2014]\s/))
    .map((c) => c.trim().replace(/^["'(\s]+|[\s"',.;)]+$/g, ""))
    .filter((c) => /^[A-Z0-9]/.test(c) && c.split(/\s+/).length >= 4);
}

const STOP = new Set(ENGLISH_STOP_WORDS);
const bare = (w: string) => w.toLowerCase().replace(/[^a-z0-9']/g, "");

/**
 * A clause cut to 12 words: at its first comma when that leaves 5 or more
 * words, else after the 12th word; trailing function words and punctuation are
 * dropped so a nugget never ends in "of the".
 */
function trim(c: string): string {
  let words = c.split(/\s+/);
  if (words.length > MAX_WORDS) {
    const comma = words.findIndex((w) => w.endsWith(","));
    words = comma >= 4 && comma < MAX_WORDS ? words.slice(0, comma + 1) : words.slice(0, MAX_WORDS);
  }
  while (words.length > 1 && (STOP.has(bare(words.at(-1)!)) || !bare(words.at(-1)!))) words.pop();
  return words.join(" ").replace(/[,;:]+$/, "");
}

/** Share of `terms` present in `bag`. */
function share(terms: readonly string[], bag: ReadonlySet<string>): number {
  if (!terms.length) return 0;
  return terms.filter((t) => bag.has(t)).length / terms.length;
}

/**
 * The offline nugget backend (name `offline`, assignment judge `lexical-nuggets`):
 * - creation: each passage's clauses (4+ words, cut to 12) scored by how many
 *   of their content words recur in the window's other passages plus twice their
 *   overlap with the query; new clauses sharing half their content words with a
 *   nugget already listed are redundant; the running list keeps its order and the
 *   best new clauses are appended up to the limit;
 * - importance: `vital` when at least `vitalShare` of the topic's relevant
 *   passages contain 60% of the nugget's content words, else `okay`;
 * - assignment: the share of the nugget's content words (stemmed) found in the
 *   answer: >= `support` support, >= `partial` partial_support, else not_support.
 *
 * @param opts Thresholds.
 * @returns The backend.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { offlineNuggetBackend } from "@lib/nuggets/mod.ts";
 * const b = offlineNuggetBackend();
 * const [w] = await b.assign([{ query: "q", answer: "Comets carry ice and dust.", nuggets: ["comets carry ice"] }]);
 * assert.deepEqual(w.value, ["support"]);
 * ```
 */
export function offlineNuggetBackend(opts: OfflineNuggetOptions = {}): NuggetBackend {
  const support = opts.support ?? 0.75;
  const partial = opts.partial ?? 0.4;
  const vitalShare = opts.vitalShare ?? 0.25;
  return {
    name: "offline",
    judge: "lexical-nuggets",
    offline: true,
    create(w) {
      const query = new Set(analyze(w.query));
      const bags = w.passages.map((p) => new Set(analyze(p)));
      const listed = w.nuggets.map((n) => uniq(analyze(n)));
      const candidates: { text: string; score: number; terms: string[] }[] = [];
      w.passages.forEach((p, i) => {
        for (const c of clauses(p)) {
          const text = trim(c);
          const terms = uniq(analyze(text));
          if (terms.length < 2) continue;
          const recur = terms.filter((t) => bags.some((b, j) => j !== i && b.has(t))).length;
          candidates.push({ text, terms, score: recur / terms.length + 2 * share(terms, query) });
        }
      });
      candidates.sort((a, b) => b.score - a.score);
      const out = [...w.nuggets];
      for (const c of candidates) {
        if (out.length >= w.maxNuggets) break;
        const bag = new Set(c.terms);
        if (listed.some((t) => share(t, bag) >= 0.5 || share(c.terms, new Set(t)) >= 0.5)) continue;
        listed.push(c.terms);
        out.push(c.text);
      }
      const raw = `offline: ${out.length - w.nuggets.length} salient clauses added`;
      return Promise.resolve({ status: "ok" as const, value: out.slice(0, w.maxNuggets), raw });
    },
    label(windows) {
      return Promise.resolve(windows.map((w) => {
        const bags = w.passages.map((p) => new Set(analyze(p)));
        const counts = w.nuggets.map((n) => {
          const terms = uniq(analyze(n));
          return bags.filter((b) => terms.length && share(terms, b) >= 0.6).length;
        });
        const need = Math.max(1, vitalShare * bags.length);
        return {
          status: "ok" as const,
          value: counts.map((c) => (c >= need && c >= 2 ? "vital" as const : "okay" as const)),
          raw: `offline: passages holding each nugget ${JSON.stringify(counts)} of ${bags.length}`,
        };
      }));
    },
    assign(windows) {
      return Promise.resolve(windows.map((w) => {
        const bag = new Set(analyze(w.answer));
        const shares = w.nuggets.map((n) => share(uniq(analyze(n)), bag));
        return {
          status: "ok" as const,
          value: shares.map((s) =>
            s >= support
              ? "support" as const
              : s >= partial
              ? "partial_support" as const
              : "not_support" as const
          ),
          raw: `offline: content words found ${JSON.stringify(shares.map((s) => +s.toFixed(3)))}`,
        };
      }));
    },
  };
}
