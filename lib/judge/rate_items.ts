// Rates texts (passages or reports) against questions of their topic with a judge, cached.

import type { AnswerabilityJudge, AnswerabilityPair, ProgressFn } from "@lib/llm/mod.ts";
import type { Rating } from "@lib/types/mod.ts";
import { ratedPairs, ratingKey, type WorkspaceLike, writeRatings } from "@lib/store/mod.ts";

/** A text (passage or report) to rate against some questions of its topic. */
export interface RatingItem {
  topicId: string;
  /** Passage id, `{topic}:report` or `{topic}:report:{run}`. */
  itemId: string;
  text: string;
  questions: readonly { questionId: string; text: string }[];
}

/** Options of {@link rateItems}. */
export interface RateItemsOptions {
  /** Lexical (offline) or model judge; its `name` is stored as `Rating.judge`. */
  judge: AnswerabilityJudge;
  /** Pairs per batch; ratings are written after each batch. Default 2000. */
  batchSize?: number;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
}

/** Counts of {@link rateItems}. */
export interface RateItemsResult {
  /** Ratings stored (parsed ones and -1 for unparseable answers). */
  written: number;
  /** Pairs already rated 0-5 by this judge, not asked again. */
  skipped: number;
  /** Pairs whose call failed after retries; not stored, so a re-run retries them. */
  failed: number;
  /** Pairs stored as -1 because the answer had no rating. */
  unparsed: number;
  /** Topics with a failed or unparsed pair in this call. */
  incompleteTopics: string[];
}

/**
 * Rates every (item, question) pair with an answerability judge (0-5) and
 * stores the ratings in the workspace, skipping pairs this judge already rated
 * (so re-runs make no calls for them). An unparseable answer is stored as -1
 * and asked again by the next run; a failed call stores nothing and is counted.
 *
 * @param ws The experiment workspace.
 * @param items Texts and the questions to rate them on.
 * @param opts `judge` (required), `batchSize` (default 2000), progress and signal.
 * @returns Counts of written, skipped, failed and unparsed pairs.
 * @example
 * ```ts
 * import { rateItems } from "@lib/judge/mod.ts";
 * import { lexicalJudge } from "@lib/llm/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const text = "Heavy rain made the river flood the town.";
 * const questions = [{ questionId: "t#q0", text: "What caused the flood?" }];
 * const judge = lexicalJudge(); // offline; or llmAnswerabilityJudge(client)
 * await rateItems(ws, [{ topicId: "t", itemId: "t:0#0", text, questions }], { judge });
 * ```
 */
export async function rateItems(
  ws: WorkspaceLike,
  items: readonly RatingItem[],
  opts: RateItemsOptions,
): Promise<RateItemsResult> {
  const judge = opts.judge;
  const done = await ratedPairs(ws, judge.name);
  const pairs: (AnswerabilityPair & { topicId: string; itemId: string; questionId: string })[] = [];
  let skipped = 0;
  for (const item of items) {
    for (const q of item.questions) {
      const id = ratingKey(item.topicId, item.itemId, q.questionId);
      if (done.has(id)) {
        skipped++;
        continue;
      }
      done.add(id);
      pairs.push({
        id,
        question: q.text,
        context: item.text,
        topicId: item.topicId,
        itemId: item.itemId,
        questionId: q.questionId,
      });
    }
  }
  const result: RateItemsResult = {
    written: 0,
    skipped,
    failed: 0,
    unparsed: 0,
    incompleteTopics: [],
  };
  const incomplete = new Set<string>();
  const size = opts.batchSize ?? 2000;
  for (let start = 0; start < pairs.length; start += size) {
    const batch = pairs.slice(start, start + size);
    const rated = await judge.rate(
      batch.map(({ id, question, context }) => ({ id, question, context })),
      { signal: opts.signal, onProgress: opts.onProgress },
    );
    const byId = new Map(rated.map((r) => [r.id, r]));
    const rows: Rating[] = [];
    batch.forEach((p) => {
      const r = byId.get(p.id);
      if (!r || r.status === "failed") {
        result.failed++;
        incomplete.add(p.topicId);
        return;
      }
      if (r.status === "unparsed") {
        result.unparsed++;
        incomplete.add(p.topicId);
      }
      rows.push({
        topicId: p.topicId,
        itemId: p.itemId,
        questionId: p.questionId,
        rating: r.status === "unparsed" ? -1 : r.rating,
        judge: judge.name,
      });
    });
    // Writing ratings records their items in `rated_items` (the workspace's upsert does).
    await writeRatings(ws, rows);
    result.written += rows.length;
  }
  result.incompleteTopics = [...incomplete].sort();
  return result;
}
