/**
 * Model stages at the concurrency bound (`deno task bench -- --only stages`):
 * the requests of every method's model stage, at each stage's prompt and answer
 * size, through the client and the workspace's call cache exactly as the
 * pipeline opens it (journal on), against the test server at 20 ms latency, at
 * concurrency 16 and 64 (bounds 800 and 3,200 requests/s). Each row gives the
 * sustained rate at the server as a share of the bound, beside two anchors
 * measured in the same run: no cache at all (the ceiling of client and server
 * on this machine) and the cache without a journal (each answer waits for its
 * group commit). A re-run of each stage is served from the cache.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import process from "node:process";
import { CallCache, type ChatRequest, JOURNAL_FILE, LlmClient } from "@lib/llm/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { startOpenAiServerInWorker } from "../support/openai_server_worker.ts";

/** A model stage's shape: prompt and answer sizes in characters (about 4 per token). */
interface StageShape {
  name: string;
  template: string;
  promptChars: number;
  answerChars: number;
}

/** Sizes of the stages' real prompts and answers (rendered built-in templates, TREC-like inputs). */
export const STAGES: readonly StageShape[] = [
  {
    name: "generation (400-word report)",
    template: "rag_report@1",
    promptChars: 6000,
    answerChars: 2400,
  },
  {
    name: "report judging (rating)",
    template: "answerability@1",
    promptChars: 3000,
    answerChars: 1,
  },
  { name: "nugget creation", template: "nugget_create@1", promptChars: 8000, answerChars: 1000 },
  {
    name: "nugget labelling",
    template: "nugget_importance@1",
    promptChars: 1500,
    answerChars: 200,
  },
  { name: "nugget assignment", template: "nugget_assign@1", promptChars: 3500, answerChars: 150 },
  {
    name: "key point extraction",
    template: "keypoint_extract@1",
    promptChars: 6000,
    answerChars: 1500,
  },
  {
    name: "key point entailment",
    template: "keypoint_entail@1",
    promptChars: 2800,
    answerChars: 20,
  },
  { name: "sub-question typing", template: "subq_classify@1", promptChars: 1500, answerChars: 150 },
  {
    name: "sub-question coverage",
    template: "subq_coverage@1",
    promptChars: 2700,
    answerChars: 80,
  },
  { name: "pairwise judging", template: "pairwise@1", promptChars: 5000, answerChars: 20 },
];

const FILL = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do ";

/** `n` distinct requests of a stage's shape (`salt` makes runs distinct). */
export function stageRequests(s: StageShape, n: number, salt: string): ChatRequest[] {
  const body = FILL.repeat(Math.ceil(s.promptChars / FILL.length)).slice(0, s.promptChars);
  return Array.from({ length: n }, (_, i) => ({
    template: s.template,
    messages: [{
      role: "user" as const,
      content: `answer-chars: ${s.answerChars}\nitem ${salt}-${i}\n${body}`,
    }],
  }));
}

/** Sustained requests/s at the server between the first and last answer of a log slice. */
function sustained(log: readonly { at: number }[]): number {
  return (log.length - 1) / ((log.at(-1)!.at - log[0].at) / 1000);
}

/** Options of {@link bench}. */
export interface StagesBenchOptions {
  /** A quarter of the requests. */
  quick?: boolean;
  /** Only the stages whose name contains one of these texts. Default: all. */
  stages?: string[];
  /** Concurrencies to measure. Default 16 and 64. */
  concurrency?: number[];
  /** Seconds of work at the bound per measurement (requests = bound x seconds). Default 1. */
  seconds?: number;
}

/**
 * Minor page faults of this process so far (first writes to new memory pages,
 * which a virtual machine may make costly), read from `/proc/self/stat`; NaN
 * where that cannot be read.
 */
function minorFaults(): number {
  try {
    const stat = Deno.readTextFileSync("/proc/self/stat");
    // Fields after the command name (which may hold spaces) start at "state"; minflt is the 8th.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
  } catch {
    return NaN;
  }
}

/** Runs the benchmark and returns report lines. */
export async function bench(opts: StagesBenchOptions = {}): Promise<string[]> {
  const latencyMs = 20;
  const lines: string[] = [];
  const rule = new URL("./_stage_rule.ts", import.meta.url).href;
  await using server = await startOpenAiServerInWorker({
    latencyMs,
    rule: { module: rule, name: "stageShapeRule" },
    keyOf: { module: rule, name: "stageKey" },
  });
  const stages = STAGES.filter((s) => !opts.stages || opts.stages.some((t) => s.name.includes(t)));
  const dir = await Deno.makeTempDir({ prefix: "crux-bench-stages-" });
  const ws = await openWorkspace(dir);
  try {
    const journaled = await CallCache.open(ws.connection, { journal: join(dir, JOURNAL_FILE) });
    const grouped = await CallCache.open(ws.connection);
    let seen = 0;
    /** Runs requests through a client and measures the server's sustained rate. */
    const measure = async (client: LlmClient, requests: ChatRequest[]) => {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const faults0 = minorFaults();
      const recs = await client.chatMany(requests);
      const seconds = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      // CPU of the whole process (client, cache, database threads and the server's
      // worker) per request: steadier than rates when other jobs share the machine.
      const cpuUs = (cpu.user + cpu.system) / requests.length;
      const faults = (minorFaults() - faults0) / requests.length;
      const { log: slice } = await server.stats({ since: seen, counts: false });
      seen += slice.length;
      const failed = recs.filter((r) => r.status !== "ok").length;
      if (failed) throw new Error(`${failed} of ${requests.length} bench requests failed`);
      return { rate: sustained(slice), seconds, sent: slice.length, cpuUs, faults };
    };
    lines.push(
      "stage, concurrency c (bound = c / 20 ms): sustained req/s at the server and % of the bound;",
      "  anchors in the same run: no cache | cache, no journal (group commit per answer) | cache with journal (pipeline);",
      "  CPU/request: process CPU (client, database, test server) per request, same order;",
      "  faults/request: first writes to new memory pages per request (Linux), same order",
    );
    const ratios: number[] = [];
    const met = new Map<number, number>();
    for (const concurrency of opts.concurrency ?? [16, 64]) {
      const bound = concurrency / (latencyMs / 1000);
      // 0.25 s (quick) or `seconds` of work at the bound.
      const n = Math.round(opts.quick ? bound / 4 : bound * (opts.seconds ?? 1));
      for (const s of stages) {
        const mk = (tag: string) => stageRequests(s, n, `${concurrency}-${tag}`);
        const base = { baseUrl: server.url, model: "bench", concurrency };
        const none = await measure(new LlmClient(base), mk("none"));
        const group = await measure(new LlmClient({ ...base, cache: grouped }), mk("group"));
        const requests = mk("journal");
        const client = new LlmClient({ ...base, cache: journaled });
        const j = await measure(client, requests);
        const t1 = performance.now();
        await client.chatMany(requests);
        const rerun = performance.now() - t1;
        const again = (await server.stats({ since: seen, counts: false })).log.length;
        seen += again;
        const pct = (r: number) => `${(100 * r / bound).toFixed(0)}%`;
        ratios.push(j.rate / bound);
        if (j.rate / bound >= 0.85) met.set(concurrency, (met.get(concurrency) ?? 0) + 1);
        lines.push(
          `${s.name.padEnd(29)} c=${String(concurrency).padStart(2)}: ${n} requests  ` +
            `no cache ${none.rate.toFixed(0)} (${pct(none.rate)}) | no journal ${
              group.rate.toFixed(0)
            } (${pct(group.rate)}) | journal ${j.rate.toFixed(0)} req/s = ${
              pct(j.rate)
            } of ${bound}; CPU/request ${none.cpuUs.toFixed(0)} | ${group.cpuUs.toFixed(0)} | ${
              j.cpuUs.toFixed(0)
            } us; faults/request ${
              [none, group, j].map((m) => m.faults.toFixed(1)).join(" | ")
            }; ` +
            `re-run ${rerun.toFixed(0)} ms, ${again} requests`,
        );
      }
    }
    const worst = Math.min(...ratios);
    const load = Deno.loadavg().map((l) => l.toFixed(1)).join(" ");
    lines.push(
      `load average at the end: ${load} (on ${navigator.hardwareConcurrency} cores)`,
      `worst stage with the journal: ${(100 * worst).toFixed(0)}% of the bound (goal >= 85%)`,
      ...(opts.concurrency ?? [16, 64]).map((c) =>
        `stages at >= 85% of the bound with the journal, c=${c}: ${
          met.get(c) ?? 0
        } of ${stages.length}`
      ),
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
  return lines;
}

if (import.meta.main) {
  // `deno run -A tests/bench/stages.ts --stage nugget --c 64 --quick`: a subset.
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      quick: { type: "boolean", default: false },
      stage: { type: "string", multiple: true },
      c: { type: "string", multiple: true },
      seconds: { type: "string" },
    },
  });
  const lines = await bench({
    quick: values.quick,
    seconds: values.seconds === undefined ? undefined : Number(values.seconds),
    stages: values.stage,
    concurrency: values.c?.map(Number),
  });
  for (const line of lines) console.log(line);
}
