/**
 * Repeats the CRUX report judging with k sampled judges, each under its own
 * judge name, and returns each sample's Cov per run.
 *
 * @module
 */
import { judgeReports } from "@lib/judge/mod.ts";
import {
  type AnswerabilityJudge,
  answerabilityRequests,
  type AnswerabilityResult,
  type LlmClient,
  parseRating,
  type ProgressFn,
} from "@lib/llm/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";

/** A judge renamed, so its ratings and measures are stored apart from the base judge's. */
function renamed(judge: AnswerabilityJudge, name: string): AnswerabilityJudge {
  return {
    name,
    rate: async (pairs, opts) =>
      (await judge.rate(pairs, opts)).map((r) => ({ ...r, judge: name })),
  };
}

/**
 * The answerability protocol with sampling parameters that override the
 * template's (which asks for temperature 0): each sample is one draw at
 * `temperature` with its own `seed`, cached apart from the others.
 */
export function sampledJudge(
  client: LlmClient,
  opts: { temperature: number; seed: number; templatesDir?: string },
): AnswerabilityJudge {
  return {
    name: client.model,
    async rate(pairs, { signal, onProgress } = {}) {
      const requests = (await answerabilityRequests(pairs, opts)).map((r) => ({
        ...r,
        params: { ...r.params, temperature: opts.temperature, seed: opts.seed },
      }));
      const records = await client.chatMany(requests, {
        signal,
        onProgress,
        step: "answerability",
        parse: parseRating,
      });
      return records.map((r, i): AnswerabilityResult => {
        const base = { id: pairs[i].id, judge: client.model, raw: r.text };
        if (r.status === "failed") {
          return {
            ...base,
            rating: -1,
            status: "failed",
            raw: null,
            error: r.error ?? "The call failed",
          };
        }
        if (r.parsed?.ok) return { ...base, rating: r.parsed.value as number, status: "ok" };
        return { ...base, rating: -1, status: "unparsed" };
      });
    },
  };
}

/** Name of sample `i` (from 1) of a judge: `<judge>#s<i>`. */
export const sampleName = (judge: string, i: number): string => `${judge}#s${i}`;

/**
 * Judges every report k times, sample i with `makeJudge(i)` stored as
 * `<base>#s<i>` (ratings and `measures` rows method crux, source report and
 * context, keyed by that judge, so the base judging's rows are untouched).
 * Returns the sample judges' names.
 */
export async function judgeSamples(
  ws: Workspace,
  opts: {
    base: string;
    samples: number;
    makeJudge: (i: number) => Promise<AnswerabilityJudge>;
    contextJudge?: string;
    onProgress?: ProgressFn;
    signal?: AbortSignal;
  },
): Promise<{ judges: string[]; failed: number }> {
  const judges: string[] = [];
  let failed = 0;
  for (let i = 1; i <= opts.samples; i++) {
    const judge = renamed(await opts.makeJudge(i), sampleName(opts.base, i));
    const r = await judgeReports(ws, {
      judge,
      contextJudge: opts.contextJudge,
      onProgress: opts.onProgress,
      signal: opts.signal,
    });
    failed += r.failed;
    judges.push(judge.name);
  }
  return { judges, failed };
}
