/**
 * LLM layer benchmarks (`deno task bench -- --only llm`): client throughput
 * against the test server at 50 ms latency, re-runs served from the cache,
 * DuckDB commit latency (autocommit vs group commit), and the offline lexical
 * judge.
 *
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import {
  answerabilityRequests,
  CallCache,
  lexicalJudge,
  LlmClient,
  type StoredCall,
} from "@lib/llm/mod.ts";
import { startOpenAiServerInWorker } from "../support/openai_server_worker.ts";
import { makePairs } from "../llm/_fixtures.ts";

const row = (key: string): StoredCall => ({
  key,
  model: "m",
  endpoint: "bench",
  template: "answerability@1",
  params: { temperature: 0 },
  messages: [{ role: "user", content: "x ".repeat(600) }],
  response: "3",
  usage: { promptTokens: 300, completionTokens: 1 },
  status: "ok",
  attempts: 1,
  latencyMs: 50,
});

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))];

/** Runs the benchmarks and returns report lines. */
export async function bench(opts: { quick?: boolean } = {}): Promise<string[]> {
  const n = opts.quick ? 500 : 2000;
  const lines: string[] = [];
  const dir = await Deno.makeTempDir();
  const db = await DuckDBInstance.create(join(dir, "workspace.duckdb"));
  const connection = await db.connect();
  const cache = await CallCache.open(connection);

  // 1. Commit latency.
  const single: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await cache.put(row(`s${i}`));
    single.push(performance.now() - t);
  }
  lines.push(
    `commit, 1 row: median ${pct(single, 0.5).toFixed(2)} ms, p90 ${
      pct(single, 0.9).toFixed(2)
    } ms (max ${(1000 / pct(single, 0.5)).toFixed(0)} serial commits/s)`,
  );
  const t0 = performance.now();
  const before = cache.commits;
  await Promise.all(Array.from({ length: 1600 }, (_, i) => cache.put(row(`g${i}`))));
  const groupMs = performance.now() - t0;
  lines.push(
    `group commit: 1600 concurrent puts in ${groupMs.toFixed(0)} ms, ${
      cache.commits - before
    } commits (${(1600 / groupMs * 1000).toFixed(0)} rows/s)`,
  );

  // 2. Client throughput at 50 ms latency, concurrency 8 (ideal 160 req/s).
  await using server = await startOpenAiServerInWorker({
    latencyMs: 50,
    rule: { module: new URL("../llm/_fixtures.ts", import.meta.url).href, name: "ratingRule" },
  });
  const requests = await answerabilityRequests(makePairs(n));
  const client = new LlmClient({ baseUrl: server.url, model: "bench", cache, concurrency: 8 });
  const t1 = performance.now();
  await client.chatMany(requests);
  const s1 = (performance.now() - t1) / 1000;
  const { log } = await server.stats();
  const sustained = (log.length - 1) / ((log.at(-1)!.at - log[0].at) / 1000);
  lines.push(
    `chat, ${n} requests, 50 ms latency, concurrency 8: ${(n / s1).toFixed(1)} req/s end to end, ${
      sustained.toFixed(1)
    } req/s sustained (${(sustained / 1.6).toFixed(1)}% of 160)`,
  );
  const t2 = performance.now();
  await client.chatMany(requests);
  const s2 = (performance.now() - t2) / 1000;
  lines.push(
    `re-run from cache: ${n} requests in ${(s2 * 1000).toFixed(0)} ms (${
      (n / s2).toFixed(0)
    } req/s), ${(await server.stats()).requests - n} HTTP requests`,
  );

  // 3. Offline judge.
  const pairs = makePairs(n * 5);
  const t3 = performance.now();
  await lexicalJudge().rate(pairs);
  const s3 = (performance.now() - t3) / 1000;
  lines.push(
    `lexical judge: ${pairs.length} pairs in ${(s3 * 1000).toFixed(0)} ms (${
      (pairs.length / s3).toFixed(0)
    } pairs/s)`,
  );

  connection.closeSync();
  db.closeSync();
  await Deno.remove(dir, { recursive: true });
  return lines;
}
