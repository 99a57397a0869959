/**
 * Report lengths as measures (a part of `measureReports`): the stored token
 * count of each judged report, and each run's mean over the topic set of its
 * Cov(y) mean, named like that mean (`Tokens` beside `Cov`, `Tokens(tau=4)`
 * beside `Cov(tau=4)`), so a table reads the length over the topics its
 * coverage is over.
 *
 * @module
 */
import type { Generation } from "@lib/types/mod.ts";
import { measureRow } from "@lib/store/mod.ts";

/** A stored Cov row of `measureReports` (source `report`). */
interface CovRow {
  run: string;
  topicId: string;
  measure: string;
  source: string;
  topics: number | null;
  topicSet: string | null;
}

/** The name of the report-length measure beside a Cov name (`Cov(tau=4)` -> `Tokens(tau=4)`). */
const reportTokensName = (cov: string): string => cov.replace(/^Cov/, "Tokens");

/**
 * The token rows of judged reports: per topic of every Cov(y) value whose
 * report has a stored token count, and a run mean beside every Cov(y) run mean
 * when each topic of that mean has one (otherwise no mean, and a note naming
 * the topics without a count).
 */
export function reportTokenRows(
  rows: readonly CovRow[],
  judged: readonly Generation[],
  judge: string,
  onNote?: (message: string) => void,
) {
  const tokens = new Map(judged.map((g) => [`${g.run}\t${g.topicId}`, g.tokens ?? null]));
  const cov = rows.filter((r) => r.source === "report" && /^Cov(\(|$)/.test(r.measure));
  const out = [];
  const row = (r: CovRow, value: number, topics: number | null) =>
    measureRow({
      run: r.run,
      topicId: r.topicId,
      measure: reportTokensName(r.measure),
      name: "Tokens",
      method: "crux",
      judge,
      source: "report",
      value,
      topics,
      topicSet: r.topicSet,
    });
  for (const r of cov) {
    if (r.topicId === "all") continue;
    const n = tokens.get(`${r.run}\t${r.topicId}`);
    if (n != null) out.push(row(r, n, null));
  }
  for (const r of cov) {
    if (r.topicId !== "all") continue;
    const topics = cov.filter((x) =>
      x.run === r.run && x.measure === r.measure && x.topicId !== "all"
    ).map((x) => x.topicId);
    const lacking = topics.filter((t) => tokens.get(`${r.run}\t${t}`) == null);
    if (lacking.length) {
      onNote?.(
        `Run "${r.run}": no mean report length beside ${r.measure}; ${lacking.length} reports have no token count (${
          lacking.slice(0, 3).join(", ")
        }${lacking.length > 3 ? ", ..." : ""})`,
      );
      continue;
    }
    const sum = topics.reduce((s, t) => s + tokens.get(`${r.run}\t${t}`)!, 0);
    out.push(row(r, sum / topics.length, topics.length));
  }
  return out;
}
