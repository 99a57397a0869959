/**
 * The offline decomposition backend: sub-questions from templates over the
 * salient noun phrases of a question and its passages.
 *
 * @module
 */
import { splitSentences } from "@lib/text/mod.ts";
import { EXTRA_STOP } from "./_terms.ts";

const STOP = EXTRA_STOP;

/** Candidate noun phrases: runs of 1-4 content words within a sentence (no stop words, no digits-only). */
function phrases(text: string): string[] {
  const out: string[] = [];
  for (const sentence of splitSentences(text)) {
    let run: string[] = [];
    const flush = () => {
      for (let n = Math.min(run.length, 4); n >= 1; n--) {
        for (let i = 0; i + n <= run.length; i++) out.push(run.slice(i, i + n).join(" "));
      }
      run = [];
    };
    for (const raw of sentence.split(/\s+/)) {
      const w = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
      const edge = /[,;:()]$/.test(raw);
      if (!w || STOP.has(w.toLowerCase()) || /^\d+$/.test(w) || w.length < 3) flush();
      else {
        run.push(w);
        if (edge) flush();
      }
    }
    flush();
  }
  return out;
}

const CORE = [
  (p: string) => `What happened with ${p}?`,
  (p: string) => `Who was involved in ${p}?`,
  (p: string) => `Why did ${p} matter?`,
];
const BACKGROUND = [(p: string) => `What is the history of ${p}?`];
const FOLLOW_UP = [(p: string) => `What will happen next with ${p}?`];

/**
 * Decomposes a question without a model (backend `noun-phrase templates
 * (offline)`): ranks noun phrases (1-4 consecutive content words) by how often
 * they occur in the question (x3) and the passages, preferring longer phrases
 * on ties and dropping phrases that share half their words or more with a
 * better one; the i-th phrase fills the i-th template in turn: "what
 * happened", history, "who was involved", what comes next, "why it mattered"
 * (so each sub-question asks about a different phrase and every kind appears).
 *
 * @param question The complex question.
 * @param passages Texts about it (may be empty).
 * @param opts `n` sub-questions (default 20).
 * @returns Up to `n` distinct sub-questions (fewer when the texts have few phrases).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { offlineDecompose } from "@lib/subq/mod.ts";
 * const qs = offlineDecompose(
 *   "Why did the Tolliver Street Bridge collapse?",
 *   ["Divers searched the Ashby River."],
 *   { n: 2 },
 * );
 * assert.deepEqual(qs, [
 *   "What happened with Tolliver Street Bridge collapse?",
 *   "What is the history of Divers searched?",
 * ]);
 * ```
 */
export function offlineDecompose(
  question: string,
  passages: readonly string[],
  opts: { n?: number } = {},
): string[] {
  const n = opts.n ?? 20;
  const score = new Map<string, { text: string; score: number }>();
  const add = (text: string, weight: number) => {
    for (const p of phrases(text)) {
      const key = p.toLowerCase();
      const e = score.get(key) ?? { text: p, score: 0 };
      e.score += weight * p.split(" ").length;
      score.set(key, e);
    }
  };
  add(question, 3);
  for (const p of passages) add(p, 1);
  const ranked = [...score.entries()].sort((a, b) =>
    b[1].score - a[1].score || b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1)
  );
  const kept: string[] = [];
  for (const [key, e] of ranked) {
    const words = key.split(" ");
    const overlaps = (k: string) => {
      const have = new Set(k.toLowerCase().split(" "));
      return words.filter((w) => have.has(w)).length * 2 >= words.length;
    };
    if (kept.some(overlaps)) continue;
    kept.push(e.text);
    if (kept.length >= n) break;
  }
  const templates = [CORE[0], ...BACKGROUND, CORE[1], ...FOLLOW_UP, CORE[2]];
  const out = kept.map((p, i) => templates[i % templates.length](p));
  return out;
}
