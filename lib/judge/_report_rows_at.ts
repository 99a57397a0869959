/**
 * Cov(y) and Den(y) of judged reports at a threshold other than the judge's
 * own, from stored ratings (a part of `measureReports`).
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";
import { measureRow } from "@lib/store/mod.ts";
import {
  answerableQuestions,
  answerMeasureName,
  coverageScores,
  valueTopicSet,
} from "@lib/metrics/mod.ts";
import { reportItemId } from "./report_item_id.ts";

/**
 * Cov(y) and Den(y) of the judged reports at another threshold `x`: A(x) from P*
 * by the context judge's ratings; a report missing a rating of A(x) has no value;
 * a run's mean only where it has one at the judge's own threshold too.
 */
export function reportRowsAt(
  x: number,
  c: {
    judged: readonly Generation[];
    questions: ReadonlyMap<string, readonly { questionId: string }[]>;
    oracle: ReadonlyMap<string, readonly string[]>;
    /** Topic -> item -> question -> rating. */
    contextRatings: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, number>>>;
    /** Topic -> item -> question -> rating. */
    reportRatings: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, number>>>;
    oracleTokens: ReadonlyMap<string, number>;
    missingText: ReadonlyMap<string, string>;
    partialRuns: ReadonlySet<string>;
    w: number;
    judge: string;
  },
) {
  const cov = answerMeasureName("Cov", x, c.w);
  const den = answerMeasureName("Den", x, c.w);
  const answerable = new Map<string, string[]>();
  for (const [t, qs] of c.questions) {
    const rows = (c.oracle.get(t) ?? []).map((p) => {
      const r = c.contextRatings.get(t)?.get(p);
      return r && qs.map((q) => r.get(q.questionId) ?? 0);
    });
    const mask = answerableQuestions(rows, qs.length, { tau: x });
    answerable.set(t, qs.filter((_, k) => mask[k]).map((q) => q.questionId));
  }
  const values = new Map<string, { topicId: string; measure: string; value: number }[]>();
  const incomplete = new Set<string>();
  for (const g of c.judged) {
    const qs = answerable.get(g.topicId) ?? [];
    if (!qs.length) continue;
    const ratings = c.reportRatings.get(g.topicId)?.get(reportItemId(g)) ??
      new Map<string, number>();
    if (qs.some((q) => !((ratings.get(q) ?? -1) >= 0))) {
      incomplete.add(g.run);
      continue;
    }
    const s = coverageScores(
      {
        ratings,
        answerable: qs,
        tokens: g.tokens ?? 0,
        oracleTokens: c.oracleTokens.get(g.topicId)!,
      },
      { tau: x, w: c.w },
    );
    const list = values.get(g.run) ?? [];
    values.set(g.run, list);
    list.push({ topicId: g.topicId, measure: cov, value: s.coverage! });
    // No Den without the report's token count (never a length of 0).
    if (!c.missingText.has(g.topicId) && g.tokens != null) {
      list.push({ topicId: g.topicId, measure: den, value: s.density! });
    }
  }
  const rows = [];
  for (const [run, list] of values) {
    const topics = list.filter((v) => v.measure === cov).length;
    for (const measure of [cov, den]) {
      const xs = list.filter((v) => v.measure === measure);
      for (const v of xs) rows.push({ run, ...v, topics: null });
      // A mean over every topic of the run: Den's needs Den of each topic Cov has.
      if (xs.length === topics && xs.length && !c.partialRuns.has(run) && !incomplete.has(run)) {
        const value = xs.reduce((a, v) => a + v.value, 0) / xs.length;
        rows.push({ run, topicId: "all", measure, value, topics: xs.length });
      }
    }
  }
  return rows.map((r) =>
    measureRow({
      ...r,
      name: r.measure.startsWith("Den") ? "Den" : "Cov",
      method: "crux",
      judge: c.judge,
      source: "report",
      topicSet: valueTopicSet({ ...r, tau: x }),
    })
  );
}
