/**
 * Ratings aligned to a run (some later CRUX releases): one JSON document
 * `{topic: [[r_1, ..., r_n], ...]}` holding one rating list per ranked passage
 * of a given run, in rank order; passage ids come from the run.
 *
 * @module
 */
import type { RunRow } from "@lib/types/mod.ts";
import type { Judgment } from "./crux_judgments.ts";
import { parseJsonDocument } from "./_json.ts";
import { Problems, show } from "./_problems.ts";

/**
 * Pairs aligned ratings with the passages of the run they follow. Each topic's
 * lists must number exactly as many as the run ranks for that topic (rank order:
 * the rank column, then file order), every list must have the topic's length,
 * and ratings are integers -1..5.
 *
 * @param text The JSON document.
 * @param run The run the ratings follow (all its rows; one run).
 * @param opts `file` and `runFile` name the inputs in errors.
 * @returns One judgment per (topic, ranked passage), in rank order.
 * @throws {InputError} On a document that is not `{topic: [[...]]}`, a topic the run
 *   does not rank, a count or length mismatch (naming the topic), or a bad rating.
 * @example
 * ```ts
 * import { alignRatings } from "@lib/formats/mod.ts";
 * const run = [
 *   { run: "r", topicId: "t1", docId: "t1:0#3", rank: 1, score: 9 },
 *   { run: "r", topicId: "t1", docId: "t1:1#5", rank: 2, score: 8 },
 * ];
 * alignRatings('{"t1": [[5, 0], [1, 4]]}', run, { file: "r.json", runFile: "r.run" });
 * // [{ topicId: "t1", itemId: "t1:0#3", ratings: [5, 0] }, { ..., itemId: "t1:1#5", ratings: [1, 4] }]
 * ```
 */
export function alignRatings(
  text: string,
  run: readonly RunRow[],
  opts: { file: string; runFile: string },
): Judgment[] {
  const doc = parseJsonDocument(text, opts.file);
  const problems = new Problems(opts.file);
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    problems.add(
      0,
      undefined,
      `expected one JSON object {topic: [[ratings], ...]}, found ${show(doc)}`,
    );
    problems.throwIfAny();
  }
  const ranked = new Map<string, RunRow[]>();
  run.forEach((r) => {
    let rows = ranked.get(r.topicId);
    if (!rows) ranked.set(r.topicId, rows = []);
    rows.push(r);
  });
  for (const rows of ranked.values()) rows.sort((a, b) => a.rank - b.rank);
  const out: Judgment[] = [];
  for (const [topicId, lists] of Object.entries(doc as Record<string, unknown>)) {
    const rows = ranked.get(topicId);
    if (!Array.isArray(lists)) {
      problems.add(0, topicId, `expected a list of rating lists, found ${show(lists)}`);
      continue;
    }
    if (!rows) {
      problems.add(0, topicId, `the run "${opts.runFile}" ranks no passage for this topic`);
      continue;
    }
    if (lists.length !== rows.length) {
      problems.add(
        0,
        topicId,
        `${lists.length} rating lists, but the run "${opts.runFile}" ranks ${rows.length} ` +
          "passages for this topic; the ratings must follow that run's ranking",
      );
      continue;
    }
    const n = Array.isArray(lists[0]) ? lists[0].length : -1;
    lists.forEach((list, i) => {
      const where = `${topicId}[${i}]`;
      if (!Array.isArray(list) || list.length !== n) {
        problems.add(
          0,
          where,
          `expected a list of ${n} ratings like ${topicId}[0], found ${show(list)}`,
        );
        return;
      }
      const bad = list.findIndex((r) => !Number.isInteger(r) || r < -1 || r > 5);
      if (bad >= 0) {
        problems.add(
          0,
          `${where}[${bad}]`,
          `expected an integer from -1 to 5, found ${show(list[bad])}`,
        );
        return;
      }
      out.push({ topicId, itemId: rows[i].docId, ratings: list as number[] });
    });
  }
  problems.throwIfAny();
  return out;
}
