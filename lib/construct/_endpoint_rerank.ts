/** Cross-encoder reranking through the reranker role (private to `rerankRun`). */
import { compareTrecOrder } from "@lib/formats/mod.ts";
import type { LlmClient } from "@lib/llm/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";
import type { EndpointRerankConfig } from "./rerank_run.ts";
import { contextRows, rankings } from "./run_rankings.ts";

/**
 * For each topic, the top `depth` passages scored against the topic's request
 * with one cached `client.rerank` call and sorted by that score in trec_eval
 * order (ties by docid descending, as every evaluation reads runs). A topic without a request keeps its first-stage order
 * (scores `depth - i`).
 *
 * @throws {RangeError} When the answer has no score for a passage.
 */
export async function endpointRows(
  source: readonly RunRow[],
  texts: ReadonlyMap<string, string>,
  requests: ReadonlyMap<string, string>,
  cfg: EndpointRerankConfig,
  opts: { client: LlmClient; signal?: AbortSignal },
): Promise<RunRow[]> {
  const depth = cfg.depth ?? 50;
  const topics = [...rankings(source)].map(([topicId, ids]) => ({
    topicId,
    ids: ids.slice(0, depth),
  }));
  const ranked = await Promise.all(topics.map(async ({ topicId, ids }) => {
    const query = requests.get(topicId)?.trim();
    if (!query) return contextRows(cfg.name, topicId, ids);
    let scores: number[];
    try {
      scores = await opts.client.rerank(query, ids.map((id) => texts.get(id) ?? ""), {
        api: cfg.api,
        signal: opts.signal,
      });
    } catch (error) {
      if (opts.signal?.aborted) throw error;
      throw new Error(
        `Stage rerank, run "${cfg.name}" (from "${cfg.from}"), topic "${topicId}": ${
          (error as Error).message
        }. Runs and data of earlier stages are kept; fix the reranker and run again`,
        { cause: error },
      );
    }
    const bad = scores.findIndex((s) => !Number.isFinite(s));
    if (bad >= 0) {
      throw new RangeError(
        `Cannot rerank "${cfg.from}" into "${cfg.name}": the reranker gave no score for passage "${
          ids[bad]
        }" of topic "${topicId}" (got ${scores[bad]})`,
      );
    }
    return ids.map((docId, i) => ({ docId, score: scores[i] }))
      .sort(compareTrecOrder)
      .map((c, rank) => ({
        run: cfg.name,
        topicId,
        docId: c.docId,
        rank: rank + 1,
        score: c.score,
      }));
  }));
  return ranked.flat();
}
