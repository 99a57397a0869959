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
import { parseRun } from "./trec_run.ts";
import { readTextFile } from "./read_text_file.ts";
import { itemTopic } from "./passage_id.ts";
import { rewriteItem } from "./topic_rewrite.ts";

/**
 * Pairs aligned ratings with the passages of the run they follow. Each topic's
 * lists must number exactly as many as the run ranks for that topic (rank order:
 * the rank column, then file order), every list must have the topic's length,
 * and ratings are integers -1..5. With `questionCounts`, a topic listed there
 * must have lists of exactly that length (its sub-question count).
 *
 * A judgment belongs to (topic, passage): a run ranks the whole corpus, so a
 * passage of one topic's documents may be rated under another topic, and a
 * passage ranked for two topics gets one judgment under each, with that topic's
 * ratings.
 *
 * @param text The JSON document.
 * @param run The run the ratings follow (all its rows; one run).
 * @param opts `file` and `runFile` name the inputs in errors; `questionCounts`
 *   (topic -> sub-questions) checks each topic's list length.
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
  opts: { file: string; runFile: string; questionCounts?: ReadonlyMap<string, number> },
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
    const known = opts.questionCounts?.get(topicId);
    const n = known ?? (Array.isArray(lists[0]) ? lists[0].length : -1);
    lists.forEach((list, i) => {
      const where = `${topicId}[${i}]`;
      if (!Array.isArray(list) || list.length !== n) {
        problems.add(
          0,
          where,
          known === undefined
            ? `expected a list of ${n} ratings like ${topicId}[0], found ${show(list)}`
            : `expected a list of ${n} ratings (one per sub-question of topic "${topicId}"), found ${
              show(list)
            }`,
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

/** Options of {@linkcode readAlignedRatings}. */
export interface AlignedRatingsOptions {
  /**
   * Maps topic ids as written (in the document and the run) to the ids to use;
   * passage ids follow their own topic's rewrite.
   */
  rewriteTopic?: (id: string) => string;
  /** Sub-questions per topic (after rewriting): each list must have that length. */
  questionCounts?: ReadonlyMap<string, number>;
}

/**
 * Reads a ratings document aligned to a run file: the one reader of such
 * releases, used by `crux eval --aligned-to`, `crux import crux --aligned-to`
 * and `crux construct select --aligned-to`. The run is read as a TREC run and
 * the lists follow its ranking per topic (see {@linkcode alignRatings}); topic
 * ids, and the topic prefix of passage ids, are rewritten after aligning.
 *
 * @param path The JSON document `{topic: [[r_1, ..., r_n], ...]}`.
 * @param runPath The TREC run the ratings follow.
 * @param opts `rewriteTopic` and `questionCounts`.
 * @returns One judgment per (topic, ranked passage), in rank order.
 * @throws {InputError} As {@linkcode alignRatings}, and on a malformed run line.
 * @throws {Deno.errors.NotFound} When a file is missing (the message names it).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readAlignedRatings } from "@lib/formats/mod.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/bm25.run`, "t1 Q0 t1:0#3 1 9 bm25\nt1 Q0 t2:1#5 2 8 bm25\n");
 * await Deno.writeTextFile(`${dir}/ratings.json`, '{"t1": [[5, 0], [1, 4]]}');
 * const judgments = await readAlignedRatings(`${dir}/ratings.json`, `${dir}/bm25.run`);
 * assert.deepEqual(judgments[1], { topicId: "t1", itemId: "t2:1#5", ratings: [1, 4] });
 * ```
 */
export async function readAlignedRatings(
  path: string,
  runPath: string,
  opts: AlignedRatingsOptions = {},
): Promise<Judgment[]> {
  const run = parseRun(await readTextFile(runPath), { file: runPath });
  const rewrite = opts.rewriteTopic;
  const counts = opts.questionCounts;
  // The document names topics as written: their question counts are looked up rewritten.
  let questionCounts = counts;
  if (counts && rewrite) {
    const asWritten = new Map<string, number>();
    for (const { topicId } of run) {
      const n = counts.get(rewrite(topicId));
      if (n !== undefined) asWritten.set(topicId, n);
    }
    questionCounts = asWritten;
  }
  const judgments = alignRatings(await readTextFile(path), run, {
    file: path,
    runFile: runPath,
    questionCounts,
  });
  if (!rewrite) return judgments;
  return judgments.map((j) => {
    const from = itemTopic(j.itemId);
    return {
      topicId: rewrite(j.topicId),
      itemId: from === undefined ? j.itemId : rewriteItem(j.itemId, from, rewrite(from)),
      ratings: j.ratings,
    };
  });
}
