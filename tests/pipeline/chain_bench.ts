/**
 * Figures for the construction -> generation -> judging chain:
 * `deno run -A tests/pipeline/chain_bench.ts [--topics N] [--latency MS]`.
 * Offline: a synthetic dataset of N topics x 10 documents through the whole
 * chain, then a re-run. Online: the same construction against the test
 * server with the given latency (concurrency 8), then a cached re-run.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { runCruxExperiment } from "@lib/experiment/mod.ts";
import { testConfig } from "./_config.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply } from "../support/fake_model.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { topics: { type: "string" }, latency: { type: "string" } },
});
const topics = Number(values.topics ?? 40);
const latency = Number(values.latency ?? 20);

let seed = 7;
const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
const sentence = () => {
  const s = Array.from(
    { length: 8 + Math.floor(rand() * 12) },
    () => vocab[Math.floor(rand() ** 2 * vocab.length)],
  ).join(" ");
  return s.charAt(0).toUpperCase() + s.slice(1) + ".";
};

async function dataset(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "crux-bench-" });
  const ws = await openWorkspace(dir);
  const docs = Array.from(
    { length: topics },
    () => Array.from({ length: 10 }, () => Array.from({ length: 25 }, sentence)),
  );
  // Summaries reuse document sentences, so sub-questions are answerable by some passage.
  const ts = docs.map((d, t) => ({
    topicId: `b-${t}`,
    request: "",
    summary: Array.from({ length: 10 }, (_, i) => d[i][Math.floor(rand() * 25)]).join(" "),
    source: "bench",
  }));
  await ws.upsert("topics", ts);
  await ws.upsert(
    "documents",
    ts.flatMap((t, ti) =>
      docs[ti].map((sents, d) => ({
        topicId: t.topicId,
        docId: `${t.topicId}:${d}`,
        docIndex: d,
        text: sents.join(" "),
      }))
    ),
  );
  ws.close();
  return dir;
}

async function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const r = await fn();
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  return r;
}

const offline = await dataset();
const offlineConfig = testConfig({ workspace: offline });
await time(
  `offline chain, ${topics} topics x 10 docs`,
  () => runCruxExperiment(offlineConfig, { until: "measure" }),
);
{
  const ws = await openWorkspace(offline);
  const n = async (t: string) =>
    (await ws.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${t}`))[0].n;
  console.log(
    `  passages ${await n("passages")}, ratings ${await n("ratings")}, reports ${await n(
      "generations",
    )}`,
  );
  ws.close();
}
await time(
  "offline chain re-run (nothing to do)",
  () => runCruxExperiment(offlineConfig, { until: "measure" }),
);
await Deno.remove(offline, { recursive: true });

const online = await dataset();
await using server = startOpenAiServer({
  latencyMs: latency,
  chat: (req) => ({ content: fakeReply(req) }),
});
const env = { OPENAI_BASE_URL: server.url, CRUX_GENERATOR_MODEL: "g", CRUX_JUDGE_MODEL: "j" };
const cfg = testConfig({
  workspace: online,
  backend: "openai",
  llm: { concurrency: 8 },
  generate: [],
});
const t0 = performance.now();
await runCruxExperiment(cfg, { env, until: "measure" });
const secs = (performance.now() - t0) / 1000;
console.log(
  `model chain (${latency} ms latency, concurrency 8): ${server.requests} calls in ${
    secs.toFixed(2)
  } s = ${(server.requests / secs).toFixed(0)} calls/s (ideal ${(8000 / latency).toFixed(0)})`,
);
server.reset();
await time("model chain re-run", () => runCruxExperiment(cfg, { env, until: "measure" }));
console.log(`  HTTP calls on re-run: ${server.requests}`);
await Deno.remove(online, { recursive: true });
