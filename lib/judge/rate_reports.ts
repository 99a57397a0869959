/**
 * Rating of generated reports: each report against every answerable
 * sub-question of its topic, stored as ratings (and failures recorded as
 * rating calls do). It computes no measure: `measureReports` reads these
 * ratings.
 *
 * @module
 */
import type { AnswerabilityJudge, ProgressFn } from "@lib/llm/mod.ts";
import type { WorkspaceLike } from "@lib/store/mod.ts";
import { rateItems, type RatingItem } from "./rate_items.ts";
import { reportItemId } from "./report_item_id.ts";
import { isContextJudged, reportTargets } from "./_report_targets.ts";
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";

/** Options of {@linkcode rateReports}. */
export interface RateReportsOptions {
  /** Judge of the reports (and of unjudged context passages with `judgeUnjudged`). */
  judge: AnswerabilityJudge;
  /** Only this generation run. Default: every run. */
  run?: string;
  /** Judge whose passage ratings give A. Default: see `passageJudge`. */
  contextJudge?: string;
  /** Rate context passages without a rating of the context judge (e.g. of other topics). Default false. */
  judgeUnjudged?: boolean;
  /** Answerability threshold of A. Default {@linkcode CRUX_DEFAULTS}.tau (3). */
  tau?: number;
  /** Tokenizer for passages stored without a token count. Default `llama3.1`. */
  tokenizer?: "llama3.1" | "whitespace";
  /** Passage qrels defining P*. Default `crux_pr`. */
  qrelsName?: string;
  onProgress?: ProgressFn;
  onNote?: (message: string) => void;
  signal?: AbortSignal;
}

/** Counts of {@linkcode rateReports}. */
export interface RateReportsResult {
  /** New ratings stored (of reports and, with `judgeUnjudged`, of context passages). */
  written: number;
  /** Failed calls (not stored; a re-run retries them). */
  failed: number;
  /** Answers stored as -1 because they had no rating (asked again on a re-run). */
  unparsed: number;
  /** Ratings asked for (new, failed and unparsed ones; not those already stored). */
  asked: number;
}

/**
 * Rates generated reports against every answerable sub-question of their
 * topic with the same answerability protocol and cache as construction (item
 * id `{topic}:report:{run}`), and with `judgeUnjudged` the context passages the
 * context judge has not rated. Stores ratings only.
 *
 * @param ws The experiment workspace (after select and generate).
 * @param opts `judge` (required), run filter, tau (3), callbacks.
 * @returns Counts of the ratings written, failed, unparsed and asked.
 * @throws {RangeError} When no sub-question is marked answerable (run `crux construct select`).
 * @example
 * ```ts ignore
 * // Not run here: it reads a workspace after the select and generate stages (`crux run`).
 * import { rateReports } from "@lib/judge/mod.ts";
 * import { lexicalJudge } from "@lib/llm/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace("outputs/demo");
 * const r = await rateReports(ws, { judge: lexicalJudge(), run: "rag-bm25" });
 * r.written; // ratings stored
 * ws.close();
 * ```
 */
export async function rateReports(
  ws: WorkspaceLike,
  opts: RateReportsOptions,
): Promise<RateReportsResult> {
  const t = await reportTargets(ws, {
    judge: opts.judge.name,
    run: opts.run,
    contextJudge: opts.contextJudge,
    tau: opts.tau ?? CRUX_DEFAULTS.tau,
    tokenizer: opts.tokenizer,
    qrelsName: opts.qrelsName,
  });
  const items: RatingItem[] = t.judged.map((g) => ({
    topicId: g.topicId,
    itemId: reportItemId(g),
    text: g.text,
    questions: t.answerable.get(g.topicId)!,
  }));
  const rated = await rateItems(ws, items, {
    judge: opts.judge,
    onProgress: opts.onProgress,
    signal: opts.signal,
  });
  if (rated.failed) {
    opts.onNote?.(`${rated.failed} report ratings failed after retries; re-run to retry them`);
  }
  if (opts.judgeUnjudged) {
    const extra: RatingItem[] = [];
    const seen = new Set<string>();
    for (const g of t.judged) {
      for (const pid of g.contextIds ?? []) {
        const key = `${g.topicId}\u0000${pid}`;
        const text = t.passage.get(pid)?.text;
        if (
          seen.has(key) || text === undefined ||
          isContextJudged(t, t.contextRatings, pid, g.topicId)
        ) continue;
        seen.add(key);
        extra.push({
          topicId: g.topicId,
          itemId: pid,
          text,
          questions: t.answerable.get(g.topicId)!,
        });
      }
    }
    if (extra.length) {
      const r = await rateItems(ws, extra, {
        judge: opts.judge,
        onProgress: opts.onProgress,
        signal: opts.signal,
      });
      rated.failed += r.failed;
      rated.unparsed += r.unparsed;
      rated.written += r.written;
    }
  }
  return {
    written: rated.written,
    failed: rated.failed,
    unparsed: rated.unparsed,
    asked: rated.written + rated.failed,
  };
}
