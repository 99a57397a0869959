/**
 * A TREC 2024 RAG-sized experiment, judged by every method
 * (`deno run -A tests/bench/trec_size.ts [--topics N] [--runs N] [--concurrency C]
 * [--methods nuggets,keypoints,subq,pairwise] [--pairwise-runs K] [--parallel P]`). It
 * generates topics, answer runs of about 400 words, 20 nuggets, 30 key points
 * and 20 typed sub-questions per topic into a workspace, then runs the judging
 * stages through the stage runner (fingerprints in the memo, as `crux run`
 * does) with one model client over the workspace's call cache and journal,
 * against the test server at 20 ms latency:
 *
 * - `nuggets`: nugget assignment, one stage per answer run (windows of 10, 2 calls per answer);
 * - `keypoints`: key point entailment, one stage per run (30 calls per answer);
 * - `subq`: sub-question coverage, one stage over every run as in the pipeline (20
 *   calls per answer);
 * - `pairwise`: position-swapped pairwise judging of the first K runs (default 5,
 *   as a baseline and the four core variants; 2 calls per pair and topic).
 *
 * With `--parallel P`, up to P stage instances run at once (`runStages`'
 * `parallel`), sharing the client's concurrency.
 *
 * Prints per stage kind calls, wall time against the concurrency bound and the
 * server's sustained rate (one stage at a time only: stages running at once share
 * the server's log, so only the whole judging is timed then); the workspace
 * size, peak memory (sampled RSS), and the time of an unchanged re-run of every
 * stage (fingerprints match: zero calls). The default (30 topics x 10 runs)
 * finishes in a few minutes on a small shared machine; the full size is
 * `--topics 301 --runs 100`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { CallCache, JOURNAL_FILE, LlmClient } from "@lib/llm/mod.ts";
import { assignNuggets, llmNuggetBackend } from "@lib/nuggets/mod.ts";
import { llmEntailer, storeKeyPoints } from "@lib/keypoints/mod.ts";
import { compareRuns, judgeAnswers } from "@lib/subq/mod.ts";
import { runStages, type StageSpec } from "@lib/pipeline/mod.ts";
import { NUGGET_STAGES } from "@lib/methods/nuggets/stages.ts";
import { judgeRun } from "@lib/methods/keypoints/work.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { startOpenAiServerInWorker } from "../support/openai_server_worker.ts";

const METHODS = ["nuggets", "keypoints", "subq", "pairwise"] as const;
const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string" },
    topics: { type: "string" },
    concurrency: { type: "string" },
    methods: { type: "string" },
    "pairwise-runs": { type: "string" },
    parallel: { type: "string" },
  },
});
const positive = (name: string, v: string | undefined, d: number) => {
  const n = Number(v ?? d);
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`--${name} must be a positive integer, got ${JSON.stringify(v)}`);
  }
  return n;
};
const runs = positive("runs", values.runs, 10);
const topics = positive("topics", values.topics, 30);
const concurrency = positive("concurrency", values.concurrency, 16);
const pairRuns = Math.min(runs, positive("pairwise-runs", values["pairwise-runs"], 5));
const parallel = positive("parallel", values.parallel, 1);
const methods = (values.methods ?? METHODS.join(",")).split(",").map((m) => m.trim());
for (const m of methods) {
  if (!(METHODS as readonly string[]).includes(m)) {
    throw new RangeError(`--methods: unknown method "${m}"; methods are ${METHODS.join(", ")}`);
  }
}
const NUGGETS = 20, KEYPOINTS = 30, SUBQS = 20, latencyMs = 20, words = 400;
const NUGGET_ORIGIN = "file:trec-nuggets.jsonl";
const KP_SOURCE = "file:trec-keypoints.jsonl";
const SUBQ_SOURCE = "file:trec-subquestions.jsonl";
const TYPES = ["core", "background", "follow-up"] as const;

let seed = 11;
const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const vocab = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
const text = (n: number) =>
  Array.from({ length: n }, () => vocab[Math.floor(rand() ** 2 * vocab.length)]).join(" ");
const t = (i: number) => `t${i}`;
const runName = (r: number) => `run-${r}`;

let peak = 0, peakHeap = 0;
const sampler = setInterval(() => {
  const m = Deno.memoryUsage();
  peak = Math.max(peak, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
}, 50);

async function dirBytes(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    n += e.isDirectory ? await dirBytes(p) : (await Deno.stat(p)).size;
  }
  return n;
}

/** Writes the generated experiment: topics, answers, nuggets, key points, sub-questions. */
async function generate(ws: Workspace): Promise<string> {
  await ws.upsert(
    "topics",
    Array.from({ length: topics }, (_, i) => ({ topicId: t(i), request: text(30) })),
  );
  await ws.upsert(
    "nuggets",
    Array.from({ length: topics * NUGGETS }, (_, k) => ({
      topicId: t(Math.floor(k / NUGGETS)),
      origin: NUGGET_ORIGIN,
      ordinal: (k % NUGGETS) + 1,
      text: text(12),
      importance: k % 3 ? "okay" : "vital",
      kept: true,
    })),
  );
  await storeKeyPoints(
    ws,
    Array.from({ length: topics }, (_, i) => ({
      qid: t(i),
      keypoints: Array.from({ length: KEYPOINTS }, (_, k) => ({
        id: `k${k + 1}`,
        text: text(15),
        spans: [],
        mergedFrom: [],
      })),
    })),
    { level: "merged", source: KP_SOURCE },
  );
  await ws.upsert(
    "subq_questions",
    Array.from({ length: topics * SUBQS }, (_, k) => ({
      topicId: t(Math.floor(k / SUBQS)),
      source: SUBQ_SOURCE,
      ordinal: (k % SUBQS) + 1,
      text: `${text(10)}?`,
      type: TYPES[k % 3],
      decomposer: "bench",
      classifier: "bench",
    })),
  );
  // The answers also go to a TREC RAG answer file (20 sentences of 20 words, each citing
  // a reference), the input whose stages an unchanged `crux run` declares.
  const file = await Deno.open(ANSWERS, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  for (let r = 0; r < runs; r++) {
    const rows = Array.from({ length: topics }, (_, i) => ({
      run: runName(r),
      topicId: t(i),
      sentences: Array.from({ length: words / 20 }, () => `${text(20)}.`),
    }));
    await ws.upsert(
      "generations",
      rows.map((a) => ({ run: a.run, topicId: a.topicId, text: a.sentences.join(" ") })),
    );
    const lines = rows.map((a) =>
      JSON.stringify({
        run_id: a.run,
        topic_id: a.topicId,
        topic: a.topicId,
        references: a.sentences.map((_, k) => `doc-${a.topicId}-${k}`),
        response_length: words,
        answer: a.sentences.map((text, k) => ({ text, citations: [k] })),
      })
    );
    await file.write(enc.encode(lines.join("\n") + "\n"));
  }
  file.close();
  return `${topics} topics, ${runs} runs of ${words} words`;
}

const root = await Deno.makeTempDir({ prefix: "crux-bench-trec-" });
const dir = join(root, "workspace");
const ANSWERS = join(root, "answers.jsonl");
/** Declares the nugget method's stages from the answer file, as `crux run` does on every run. */
async function declareNuggetStages(): Promise<number> {
  const t0 = performance.now();
  await NUGGET_STAGES.stages({ answers: [ANSWERS] }, {
    backend: "offline",
    answerRuns: [],
    answerStages: [],
    dataStages: [],
    judgeStages: [],
    outDir: dir,
    configFile: "trec-size.json",
  }, () => Promise.reject(new Error("not run")));
  return (performance.now() - t0) / 1000;
}
try {
  const t0 = performance.now();
  const ws = await openWorkspace(dir);
  await using server = await startOpenAiServerInWorker({
    latencyMs,
    rule: { module: new URL("./_trec_rule.ts", import.meta.url).href, name: "trecJudgeRule" },
    keyOf: { module: new URL("./_trec_rule.ts", import.meta.url).href, name: "trecKey" },
  });
  const cache = await CallCache.open(ws.connection, { journal: join(dir, JOURNAL_FILE) });
  // Progress on stderr every minute: calls answered, memory, and DuckDB's own share.
  const monitor = await ws.instance.connect();
  let peakDuck = 0;
  const memoryLimit = String(
    (await monitor.runAndReadAll("SELECT current_setting('memory_limit')")).getRowsJS()[0][0],
  );
  const progress = setInterval(async () => {
    try {
      const rows = (await monitor.runAndReadAll(
        "SELECT tag, memory_usage_bytes FROM duckdb_memory() WHERE memory_usage_bytes > 0",
      )).getRowsJS();
      const duck = rows.reduce((n, r) => n + Number(r[1]), 0);
      peakDuck = Math.max(peakDuck, duck);
      const top = rows.sort((a, b) => Number(b[1]) - Number(a[1])).slice(0, 3)
        .map((r) => `${r[0]} ${(Number(r[1]) / 1e6).toFixed(0)} MB`).join(", ");
      const { requests } = await server.stats({ since: Number.MAX_SAFE_INTEGER, counts: false });
      const m = Deno.memoryUsage();
      console.error(
        `  [${((performance.now() - t0) / 1000).toFixed(0)} s] ${requests} calls; RSS ${
          (m.rss / 1e6).toFixed(0)
        } MB, JavaScript heap ${(m.heapUsed / 1e6).toFixed(0)} MB, external ${
          (m.external / 1e6).toFixed(0)
        } MB, DuckDB ${(duck / 1e6).toFixed(0)} MB (${top})`,
      );
    } catch {
      // a sample taken while the workspace closes
    }
  }, 60_000);
  const client = new LlmClient({ baseUrl: server.url, model: "bench", cache, concurrency });
  const nuggetBackend = llmNuggetBackend(client);
  const entailer = llmEntailer(client);
  /** Per stage kind: calls, seconds, failed/unparsed items, busy seconds at the server. */
  const kinds = new Map<string, { calls: number; seconds: number; bad: number; busy: number }>();
  let seen = 0;
  /** Times a stage's work and counts the calls the server answered meanwhile. */
  const timed =
    (kind: string, work: () => Promise<{ summary: string; bad: number }>) => async () => {
      const s0 = performance.now();
      const out = await work();
      const seconds = (performance.now() - s0) / 1000;
      // Only the log since the last stage crosses threads: the whole log grows with every call.
      const { log: slice } = await server.stats({ since: seen, counts: false });
      seen += slice.length;
      const k = kinds.get(kind) ?? { calls: 0, seconds: 0, bad: 0, busy: 0 };
      k.calls += slice.length;
      k.seconds += seconds;
      k.bad += out.bad;
      // Busy time at the server: from the first call's start (its answer less the
      // latency) to the last answer.
      if (slice.length) k.busy += (slice.at(-1)!.at - slice[0].at + latencyMs) / 1000;
      kinds.set(kind, k);
      return { summary: out.summary, failed: out.bad };
    };
  const params = { topics, runs, words, seed: 11 };
  let judgeStart = performance.now();
  const specs: StageSpec[] = [{
    id: "dataset",
    stage: "dataset",
    version: 1,
    params,
    deps: [],
    run: async (w) => {
      const summary = await generate(w);
      judgeStart = performance.now(); // every judging stage reads the data
      return summary;
    },
  }];
  const judge = (id: string, deps: string[], p: unknown, run: StageSpec["run"]) =>
    specs.push({ id, stage: "judge", version: 1, params: p, deps, run });
  for (let r = 0; r < runs; r++) {
    const run = runName(r);
    if (methods.includes("nuggets")) {
      judge(`judge:nuggets-assign:${run}`, ["dataset"], { run, window: 10 }, async (w) => {
        const fn = timed("nugget assignment", async () => {
          const a = await assignNuggets(w, {
            backend: nuggetBackend,
            origin: NUGGET_ORIGIN,
            runs: [run],
            window: 10,
          });
          return { summary: `${a.labels} labels, ${a.failed} failed`, bad: a.failed };
        });
        return await fn();
      });
    }
    if (methods.includes("keypoints")) {
      judge(`judge:keypoints/${run}`, ["dataset"], { run }, async (w) => {
        const fn = timed("key point entailment", async () => {
          const summary = await judgeRun(w, run, { source: KP_SOURCE, entailer });
          const bad = Number(/(\d+) unusable/.exec(summary)?.[1] ?? 0);
          return { summary, bad };
        });
        return await fn();
      });
    }
  }
  if (methods.includes("subq")) {
    // One stage over every run, as the pipeline's `judge:subq-coverage`.
    const all = Array.from({ length: runs }, (_, r) => runName(r));
    judge("judge:subq-coverage", ["dataset"], { runs: all }, async (w) => {
      const fn = timed("sub-question coverage", async () => {
        const j = await judgeAnswers(w, { client, runs: all, source: SUBQ_SOURCE, chunks: false });
        return {
          summary: `${j.judged} judgments, ${j.unparsed} unparsed, ${j.failed} failed`,
          bad: j.unparsed + j.failed,
        };
      });
      return await fn();
    });
  }
  if (methods.includes("pairwise") && pairRuns > 1) {
    const cmp = Array.from({ length: pairRuns }, (_, r) => runName(r));
    judge("judge:subq-pairwise", ["dataset"], { runs: cmp }, async (w) => {
      const fn = timed("pairwise judging", async () => {
        const r = await compareRuns(w, { client, runs: cmp, judge: "bench", source: SUBQ_SOURCE });
        return { summary: `${r.verdicts.length} verdicts`, bad: 0 };
      });
      return await fn();
    });
  }
  const order = ["dataset", "judge"];
  const first = await runStages(ws, specs, { order, parallel });
  const judgeWall = (performance.now() - judgeStart) / 1000;
  const declared = await declareNuggetStages(); // reads the answer file, remembers its digest
  const total = (performance.now() - t0) / 1000;
  /** Requests the server answered so far (no log crosses threads). */
  const served = async () =>
    (await server.stats({ since: Number.MAX_SAFE_INTEGER, counts: false })).requests;
  const before = await served();
  const t1 = performance.now();
  const again = await runStages(ws, specs, { order, parallel });
  const rerun = (performance.now() - t1) / 1000;
  const resent = (await served()) - before;
  clearInterval(progress);
  monitor.closeSync();
  ws.close();
  // A fresh process opens the workspace and checks every stage, as `crux run` does.
  const t2 = performance.now();
  const redeclared = await declareNuggetStages();
  const ws2 = await openWorkspace(dir);
  const cold = await runStages(ws2, specs, { order, parallel });
  ws2.close();
  const reopened = (performance.now() - t2) / 1000;
  const resent2 = (await served()) - before - resent;
  const size = await dirBytes(dir);
  const answerBytes = (await Deno.stat(ANSWERS)).size;
  const bound = concurrency / (latencyMs / 1000);
  const lines = [
    `TREC-sized judging: ${topics} topics x ${runs} runs of ${words} words; ${NUGGETS} nuggets, ` +
    `${KEYPOINTS} key points, ${SUBQS} sub-questions per topic; pairwise over ${pairRuns} runs ` +
    `(concurrency ${concurrency}, ${latencyMs} ms; bound ${bound} req/s; load ${
      Deno.loadavg().map((x) => x.toFixed(2)).join(" ")
    })`,
  ];
  let calls = 0, busy = 0;
  for (const [kind, k] of parallel > 1 ? [] : kinds) {
    calls += k.calls;
    busy += k.seconds;
    const rate = k.calls / k.seconds;
    const sustained = k.calls / k.busy;
    lines.push(
      `  ${kind.padEnd(22)} ${String(k.calls).padStart(7)} calls in ${k.seconds.toFixed(1)} s ` +
        `(ideal ${(k.calls / bound).toFixed(1)} s): ${rate.toFixed(0)} req/s = ${
          (100 * rate / bound).toFixed(0)
        }% of the bound; sustained ${sustained.toFixed(0)} req/s = ${
          (100 * sustained / bound).toFixed(0)
        }%; ${k.bad} failed or unparsed`,
    );
  }
  if (parallel > 1) {
    // Stages overlapped: the whole judging, from the data to the last stage.
    calls = before;
    busy = judgeWall;
    lines.push(`  up to ${parallel} stages at once: calls and times per stage kind overlap`);
  }
  lines.push(
    `  all judging: ${calls} calls in ${busy.toFixed(1)} s (ideal ${
      (calls / bound).toFixed(1)
    } s, ${(100 * calls / bound / busy).toFixed(0)}% of the bound); judging wall clock ${
      judgeWall.toFixed(1)
    } s (${(100 * calls / bound / judgeWall).toFixed(0)}%); whole run incl. generating the data ${
      total.toFixed(1)
    } s; ` +
      `${first.ran.length} stages ran, ${first.incomplete.length} incomplete`,
    `  workspace ${(size / 1e6).toFixed(1)} MB; peak RSS ${
      (peak / 1e6).toFixed(0)
    } MB (JavaScript heap and ` +
      `external buffers at most ${
        (peakHeap / 1e6).toFixed(0)
      } MB; DuckDB's own accounting at most ${
        (peakDuck / 1e6).toFixed(0)
      } MB of its ${memoryLimit} limit, sampled each minute; the rest is the runtime)`,
    `  unchanged re-run of all ${specs.length} stages: ${rerun.toFixed(2)} s, ${resent} calls, ` +
      `${again.fresh.length} up to date; after reopening the workspace ${reopened.toFixed(2)} s, ` +
      `${resent2} calls, ${cold.fresh.length} up to date, including declaring the nugget ` +
      `method's stages from the ${(answerBytes / 1e6).toFixed(1)} MB answer file in ${
        redeclared.toFixed(2)
      } s (remembered digest; ${declared.toFixed(2)} s reading the file the first time) ` +
      `(goal <= 2 s, zero calls)`,
  );
  console.log(lines.join("\n"));
} finally {
  clearInterval(sampler);
  await Deno.remove(root, { recursive: true });
}
