/**
 * Nugget assignment benchmark (`deno task bench -- --only nuggets`): 30 nuggets
 * assigned to 1,000 answers in windows of 10 (3,000 requests) through the test
 * server at 20 ms latency and concurrency 16, whose bound is 16 / 0.02 s = 800
 * requests/s; then the same assignment again, served from the cache.
 *
 * @module
 */
import { join } from "node:path";
import { CallCache, JOURNAL_FILE, LlmClient } from "@lib/llm/mod.ts";
import { assignNuggets, llmNuggetBackend, scoreNuggets } from "@lib/nuggets/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServerInWorker } from "../support/openai_server_worker.ts";

/** Runs the benchmark and returns report lines. */
export async function bench(opts: { quick?: boolean } = {}): Promise<string[]> {
  const answers = opts.quick ? 200 : 1000;
  const nuggets = 30, concurrency = 16, latencyMs = 20, runs = 10;
  const topics = answers / runs;
  const dir = await Deno.makeTempDir({ prefix: "crux-bench-nuggets-" });
  const ws = await openWorkspace(dir);
  const lines: string[] = [];
  try {
    const t = (i: number) => `t${i}`;
    await ws.upsert(
      "topics",
      Array.from({ length: topics }, (_, i) => ({ topicId: t(i), request: `Query ${i}?` })),
    );
    await ws.upsert(
      "nuggets",
      Array.from({ length: topics * nuggets }, (_, k) => ({
        topicId: t(Math.floor(k / nuggets)),
        origin: "file:bench.jsonl",
        ordinal: (k % nuggets) + 1,
        text: `fact ${k % nuggets} of topic ${Math.floor(k / nuggets)}`,
        importance: k % 3 ? "okay" : "vital",
        kept: true,
      })),
    );
    await ws.upsert(
      "generations",
      Array.from({ length: answers }, (_, k) => ({
        run: `run-${k % runs}`,
        topicId: t(Math.floor(k / runs)),
        text: `Answer ${k} about topic ${Math.floor(k / runs)} with several facts.`,
      })),
    );
    await using server = await startOpenAiServerInWorker({
      latencyMs,
      rule: {
        module: new URL("../nuggets/_rules.ts", import.meta.url).href,
        name: "nuggetLabelRule",
      },
    });
    // Opened as the pipeline opens it: answers journaled, committed in groups.
    const cache = await CallCache.open(ws.connection, { journal: join(dir, JOURNAL_FILE) });
    const client = new LlmClient({ baseUrl: server.url, model: "bench", cache, concurrency });
    const backend = llmNuggetBackend(client);
    const t0 = performance.now();
    const a = await assignNuggets(ws, { backend, origin: "file:bench.jsonl" });
    const s = (performance.now() - t0) / 1000;
    const { log, requests } = await server.stats();
    const sustained = (log.length - 1) / ((log.at(-1)!.at - log[0].at) / 1000);
    const bound = concurrency / (latencyMs / 1000);
    lines.push(
      `assign ${nuggets} nuggets x ${answers} answers (windows of 10): ${requests} requests, ${a.labels} labels, ${a.failed} failed`,
      `  ${(requests / s).toFixed(0)} req/s end to end (${s.toFixed(2)} s, stores included), ${
        sustained.toFixed(0)
      } req/s sustained at the server = ${
        (sustained / bound * 100).toFixed(1)
      }% of the bound ${bound} req/s (concurrency ${concurrency}, ${latencyMs} ms)`,
    );
    const t1 = performance.now();
    const again = await assignNuggets(ws, { backend, origin: "file:bench.jsonl" });
    const s1 = (performance.now() - t1) / 1000;
    lines.push(
      `re-run: ${
        (await server.stats()).requests - requests
      } requests, ${again.labels} labels from the cache in ${s1.toFixed(2)} s`,
    );
    const t2 = performance.now();
    const scores = await scoreNuggets(ws, { origin: "file:bench.jsonl", judge: "bench" });
    lines.push(
      `score ${scores.length} runs into the measure table: ${
        (performance.now() - t2).toFixed(0)
      } ms`,
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
  return lines;
}
