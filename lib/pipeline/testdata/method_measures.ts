/**
 * Synthetic measure-table rows of the four evaluation methods, with known
 * values, for the comparison tests: four answer runs x five topics.
 *
 * @module
 */

/** Runs in the fixture. */
export const RUNS = ["direct", "oracle-context", "oracle-result", "rag-bm25"];
/** Topics in the fixture. */
export const TOPICS = ["t1", "t2", "t3", "t4", "t5"];

/** Per-topic values [run][topic] of each method's headline. */
export const VALUES: Record<string, number[][]> = {
  // crux Cov: oracle-result > oracle-context > rag-bm25 > direct on average.
  crux: [
    [0.2, 0.1, 0.3, 0.2, 0.2],
    [0.7, 0.6, 0.8, 0.5, 0.9],
    [0.9, 0.8, 0.9, 0.7, 1.0],
    [0.5, 0.3, 0.6, 0.4, 0.7],
  ],
  nuggets: [
    [0.1, 0.2, 0.2, 0.1, 0.3],
    [0.6, 0.5, 0.5, 0.6, 0.7],
    [0.5, 0.7, 0.8, 0.8, 0.6],
    [0.4, 0.4, 0.3, 0.2, 0.5],
  ],
  keypoints: [
    [0.3, 0.3, 0.3, 0.3, 0.3],
    [0.5, 0.4, 0.6, 0.4, 0.5],
    [0.8, 0.6, 0.7, 0.9, 0.8],
    [0.6, 0.5, 0.4, 0.3, 0.6],
  ],
};

const HEADLINE: Record<string, { measure: string; source: string; judge: string }> = {
  crux: { measure: "Cov", source: "report", judge: "lexical" },
  nuggets: { measure: "strict_vital", source: "", judge: "lexical" },
  keypoints: { measure: "KPR", source: "", judge: "lexical" },
};

/** Rows for `ws.upsert("measures", ...)`: per topic and `all`, plus non-headline distractors. */
export function methodMeasureRows(): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const [method, grid] of Object.entries(VALUES)) {
    const h = HEADLINE[method];
    grid.forEach((values, r) => {
      const base = { run: RUNS[r], name: h.measure, cutoff: "", method, judge: h.judge };
      values.forEach((value, t) =>
        rows.push({ ...base, topicId: TOPICS[t], measure: h.measure, source: h.source, value })
      );
      rows.push({
        ...base,
        topicId: "all",
        measure: h.measure,
        source: h.source,
        value: values.reduce((s, v) => s + v, 0) / values.length,
        topics: values.length,
        topicSet: method === "crux"
          ? `answerable(tau=3,n=${values.length})`
          : `judged(n=${values.length})`,
      });
      // A second measure of the method and a retrieval-run Cov@10 must be ignored.
      rows.push({
        ...base,
        topicId: "t1",
        measure: "other",
        name: "other",
        source: h.source,
        value: 9,
      });
    });
  }
  rows.push({
    run: "bm25",
    topicId: "t1",
    measure: "Cov@10",
    name: "Cov",
    cutoff: "10",
    method: "crux",
    judge: "lexical",
    source: "",
    value: 0.5,
  });
  return rows;
}
