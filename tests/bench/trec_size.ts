/**
 * A TREC 2024 RAG-sized judging workload (`deno run -A tests/bench/trec_size.ts
 * [--runs N] [--topics N] [--concurrency C]`): 301 topics, answer runs of about
 * 400 words, 20 nuggets per topic, nugget assignment (windows of 10 nuggets, 2
 * calls per answer) through the workspace's cache with its journal against the
 * test server at 20 ms latency. Prints calls, wall time against the concurrency
 * bound, workspace size, peak memory (sampled RSS), and the time of an unchanged
 * re-run of the stage (every answer from the cache, zero calls). Pass a fraction
 * of the 100 runs with `--runs`; the printed extrapolation to 100 runs is linear
 * in the number of calls.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { CallCache, JOURNAL_FILE, LlmClient } from "@lib/llm/mod.ts";
import { assignNuggets, llmNuggetBackend } from "@lib/nuggets/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServerInWorker } from "../support/openai_server_worker.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string" },
    topics: { type: "string" },
    concurrency: { type: "string" },
  },
});
const runs = Number(values.runs ?? 100);
const topics = Number(values.topics ?? 301);
const concurrency = Number(values.concurrency ?? 16);
const nuggets = 20, latencyMs = 20, words = 400;

let seed = 11;
const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const vocab = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
const text = (n: number) =>
  Array.from({ length: n }, () => vocab[Math.floor(rand() ** 2 * vocab.length)]).join(" ");

let peak = 0;
const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 50);

async function dirBytes(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    n += e.isDirectory ? await dirBytes(p) : (await Deno.stat(p)).size;
  }
  return n;
}

const dir = await Deno.makeTempDir({ prefix: "crux-bench-trec-" });
try {
  const ws = await openWorkspace(dir);
  const t = (i: number) => `t${i}`;
  await ws.upsert(
    "topics",
    Array.from({ length: topics }, (_, i) => ({ topicId: t(i), request: text(30) })),
  );
  await ws.upsert(
    "nuggets",
    Array.from({ length: topics * nuggets }, (_, k) => ({
      topicId: t(Math.floor(k / nuggets)),
      origin: "file:trec.jsonl",
      ordinal: (k % nuggets) + 1,
      text: text(12),
      importance: k % 3 ? "okay" : "vital",
      kept: true,
    })),
  );
  for (let r = 0; r < runs; r++) {
    await ws.upsert(
      "generations",
      Array.from({ length: topics }, (_, i) => ({
        run: `run-${r}`,
        topicId: t(i),
        text: text(words),
      })),
    );
  }
  await using server = await startOpenAiServerInWorker({
    latencyMs,
    rule: {
      module: new URL("../nuggets/_rules.ts", import.meta.url).href,
      name: "nuggetLabelRule",
    },
  });
  const cache = await CallCache.open(ws.connection, { journal: join(dir, JOURNAL_FILE) });
  const client = new LlmClient({ baseUrl: server.url, model: "bench", cache, concurrency });
  const backend = llmNuggetBackend(client);
  const t0 = performance.now();
  const a = await assignNuggets(ws, { backend, origin: "file:trec.jsonl" });
  const seconds = (performance.now() - t0) / 1000;
  const { requests, log } = await server.stats();
  const bound = concurrency / (latencyMs / 1000);
  const sustained = (log.length - 1) / ((log.at(-1)!.at - log[0].at) / 1000);
  const t1 = performance.now();
  const again = await assignNuggets(ws, { backend, origin: "file:trec.jsonl" });
  const rerun = (performance.now() - t1) / 1000;
  const resent = (await server.stats()).requests - requests;
  ws.close();
  const size = await dirBytes(dir);
  const scale = 100 / runs;
  const lines = [
    `nugget assignment, ${topics} topics x ${runs} runs of ${words} words x ${nuggets} nuggets ` +
    `(concurrency ${concurrency}, ${latencyMs} ms; bound ${bound} req/s)`,
    `  calls ${requests} (${a.labels} labels, ${a.failed} failed) in ${seconds.toFixed(1)} s: ` +
    `${(requests / seconds).toFixed(0)} req/s end to end = ${
      (100 * requests / seconds / bound).toFixed(0)
    }% of the bound (ideal ${(requests / bound).toFixed(1)} s); sustained at the server ${
      sustained.toFixed(0)
    } req/s = ${(100 * sustained / bound).toFixed(0)}%`,
    `  workspace ${(size / 1e6).toFixed(1)} MB; peak RSS ${(peak / 1e6).toFixed(0)} MB`,
    `  unchanged re-run of the stage: ${
      rerun.toFixed(2)
    } s, ${resent} calls, ${again.labels} labels`,
  ];
  if (runs !== 100) {
    lines.push(
      `  extrapolated to 100 runs (x${scale.toFixed(1)}, linear in calls): ` +
        `${Math.round(requests * scale)} calls, ${(seconds * scale).toFixed(0)} s, ` +
        `workspace ~${(size * scale / 1e6).toFixed(0)} MB, re-run ~${(rerun * scale).toFixed(1)} s`,
    );
  }
  console.log(lines.join("\n"));
} finally {
  clearInterval(sampler);
  await Deno.remove(dir, { recursive: true });
}
