/**
 * Explorer benchmark: a release-format experiment (50 topics; 10 with `--quick`)
 * is built and served on loopback, and each page kind is asked by 20 clients at
 * once, first for every topic once (pages rendered), then again (pages served as
 * rendered while the workspace is unchanged); the median and 95th percentile
 * latency per page are printed (the target is a p95 of at most 300 ms per page on
 * the 50-topic experiment), with the machine's load average before and after
 * (latencies under 20 concurrent requests grow with whatever else the machine runs).
 *
 * Run: `deno run -A tests/bench/serve.ts [--quick]` or through `deno task bench`.
 *
 * @module
 */
import { join } from "node:path";
import { loadExperimentConfig, runCruxExperiment } from "@lib/experiment/mod.ts";
import { serveWorkspace } from "@lib/serve/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { writeReleaseFixture } from "../support/release_fixture.ts";

const CONCURRENCY = 20;

/** The `q` quantile (0-1) of `values`, nearest rank. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Asks `paths` (cycled) `total` times with `CONCURRENCY` requests in flight; latencies in ms. */
async function load(base: string, paths: string[], total: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const path = paths[next++ % paths.length];
      const start = performance.now();
      const res = await fetch(base + path);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
      times.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return times;
}

/**
 * Run the explorer benchmark.
 *
 * @param opts `quick` (default false): 10 topics and fewer requests.
 * @returns One line per page kind: requests, p50 and p95.
 */
export async function bench(opts: { quick?: boolean } = {}): Promise<string[]> {
  const topics = opts.quick ? 10 : 50;
  const requests = opts.quick ? 60 : 200;
  const dir = await Deno.makeTempDir({ prefix: "crux-bench-serve-" });
  const out: string[] = [];
  try {
    const file = await writeReleaseFixture(dir, topics);
    const raw = JSON.parse(await Deno.readTextFile(file));
    // CRUX and nuggets only.
    for (const m of METHOD_REGISTRY) if (m.section && m.key !== "nuggets") delete raw[m.key];
    raw.workspace = join(dir, "ws");
    await Deno.writeTextFile(file, JSON.stringify(raw));
    const config = await loadExperimentConfig(file);
    await runCruxExperiment(config, {});
    const ws = await openWorkspace(config.workspace, { readOnly: true });
    const ids = (await ws.query<{ topicId: string }>(
      `SELECT DISTINCT topic_id FROM generations WHERE run = 'rag-bm25' ORDER BY topic_id`,
    )).map((r) => encodeURIComponent(r.topicId));
    ws.close();
    const server = await serveWorkspace(config.workspace, { port: 0 });
    try {
      const pages: [string, string[]][] = [
        ["experiment /", ["/"]],
        ["topic /topic/<t>", ids.map((t) => `/topic/${t}`)],
        ["topic /topic/<t>?k=100", ids.map((t) => `/topic/${t}?k=100`)],
        ["report /report/rag-bm25/<t>", ids.map((t) => `/report/rag-bm25/${t}`)],
        ["compare /compare/<t>", ids.map((t) => `/compare/${t}`)],
      ];
      const loadAverage = () => Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
      out.push(
        `${topics} topics, ${CONCURRENCY} concurrent requests, ${requests} requests per page kind`,
        `load average (1, 5, 15 min) before: ${loadAverage()} on ${navigator.hardwareConcurrency} cores`,
      );
      const line = (name: string, times: number[]) =>
        `${name.padEnd(40)} p50 ${quantile(times, 0.5).toFixed(0).padStart(5)} ms   p95 ${
          quantile(times, 0.95).toFixed(0).padStart(5)
        } ms   (${times.length} requests)`;
      for (const [name, paths] of pages) {
        // First visits render every page (each asked once, 20 at a time); then the
        // pages again, served as rendered while the workspace is unchanged.
        out.push(line(`${name} first`, await load(server.url, paths, paths.length)));
        out.push(line(`${name} again`, await load(server.url, paths, requests)));
      }
      out.push(`load average after: ${loadAverage()}`);
    } finally {
      await server.shutdown();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return out;
}

if (import.meta.main) {
  for (const line of await bench({ quick: Deno.args.includes("--quick") })) console.log(line);
}
