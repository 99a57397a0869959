// Construction step `ratings`: rates every passage of a topic against each of its sub-questions.

import type { AnswerabilityJudge } from "@lib/llm/mod.ts";
import { rateItems, type RatingItem } from "@lib/judge/rate_items.ts";
import {
  incompleteRatingTopics,
  readPassages,
  readTopics,
  readWorkspaceSubquestions,
  recordIncompleteRatingTopics,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import type { StepOptions, StepSummary } from "./types.ts";

/** Options of {@link rateTopics}. */
export interface RateTopicsOptions extends StepOptions {
  /** The answerability judge: `lexicalJudge` offline or a model judge (temperature 0, top-p 1). */
  judge: AnswerabilityJudge;
  /** Also rate the human summary as item `{topic}:report`. Default true. */
  includeSummary?: boolean;
  /** Pairs per batch of calls. Default 2000. */
  batchSize?: number;
}

/**
 * Construction step `ratings`: the full rating matrix of every topic, i.e. the
 * graded answerability (0-5) of every (passage, sub-question) pair, plus the
 * human summary under item id `{topic}:report`. Pairs this judge already rated
 * are skipped; unparseable answers are stored as -1 and failed calls are not
 * stored; both are counted, asked again by a re-run, and their topics recorded
 * (see `incompleteRatingTopics`) so the selection leaves them out meanwhile.
 *
 * @param ws The experiment workspace.
 * @param opts `judge` (required), `includeSummary` (default true), callbacks.
 * @returns What was done (`written` = ratings stored).
 * @example
 * ```ts
 * import { rateTopics } from "@lib/construct/mod.ts";
 * import { lexicalJudge } from "@lib/llm/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await rateTopics(ws, { judge: lexicalJudge() });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function rateTopics(ws: WorkspaceLike, opts: RateTopicsOptions): Promise<StepSummary> {
  const topics = await readTopics(ws, opts.topics);
  const passages = await readPassages(ws);
  const questions = await readWorkspaceSubquestions(ws);
  const items: RatingItem[] = [];
  let worked = 0;
  for (const t of topics) {
    const qs = questions.get(t.topicId);
    if (!qs?.length) {
      opts.onNote?.(`Topic "${t.topicId}" has no sub-questions; run the questions step first`);
      continue;
    }
    worked++;
    for (const p of passages.get(t.topicId) ?? []) {
      items.push({ topicId: t.topicId, itemId: p.passageId, text: p.text, questions: qs });
    }
    if ((opts.includeSummary ?? true) && t.summary) {
      items.push({
        topicId: t.topicId,
        itemId: `${t.topicId}:report`,
        text: t.summary,
        questions: qs,
      });
    }
  }
  const r = await rateItems(ws, items, {
    judge: opts.judge,
    batchSize: opts.batchSize,
    onProgress: opts.onProgress,
    signal: opts.signal,
  });
  // Topics with failed or unparsed pairs are recorded, so the selection leaves them
  // out until a re-run rates them; topics not rated now keep their record.
  const covered = new Set(items.map((i) => i.topicId));
  await recordIncompleteRatingTopics(ws, opts.judge.name, [
    ...(await incompleteRatingTopics(ws, opts.judge.name)).filter((t) => !covered.has(t)),
    ...r.incompleteTopics,
  ]);
  if (r.failed) {
    opts.onNote?.(`${r.failed} ratings failed after retries; re-run the step to retry them`);
  }
  if (r.unparsed) opts.onNote?.(`${r.unparsed} answers had no rating 0-5 and were stored as -1`);
  return {
    step: "ratings",
    topics: worked,
    skipped: topics.length - worked,
    written: r.written,
    failed: r.failed,
    unparsed: r.unparsed,
  };
}
