/**
 * BM25 speed across collection and query shapes: Zipf exponents of the
 * vocabulary (0.9-1.2) and query lengths (5-80 words, about a third function
 * words, content words with suffix variants), top-100 search, single thread.
 * Reports build time, saved index size and, per shape, the median queries/s
 * over `rounds` timed passes (after one warm-up pass).
 *
 * `--export DIR` also writes each collection and its queries as TSV
 * (`zipf<e>/docs.tsv`, `zipf<e>/queries_<words>.tsv`) and this engine's top 10
 * per query (`zipf<e>/crux_top10_<words>.tsv`: query, rank, docid, score), so
 * another engine can be timed and compared on exactly the same input.
 *
 * `--keep DIR` saves each built index in `DIR/<passages>-zipf<e>` and loads it
 * on later runs instead of generating and building again (for repeated timings
 * on a shared machine). Queries/s are given by wall clock and per CPU second of
 * this process (robust to other load).
 *
 * Run: `deno run -A tests/bench/bm25_sweep.ts [--passages N] [--export DIR]
 * [--keep DIR] [--exponents 0.9,1.0,1.2] [--lengths 5,20,50,80] [--queries 100]
 * [--rounds 5]` (default 100,000 passages; the CRUX pooled corpus is 565,000).
 *
 * @module
 */
import { parseArgs } from "node:util";
import process from "node:process";
import { dirname } from "node:path";
import { Bm25Index } from "@lib/retrieval/mod.ts";
import { generateCollection, textGenerator } from "./bm25.ts";

/**
 * The `deno task bench` entry: 100,000 passages (20,000 with `quick`), every
 * shape.
 */
export function bench(opts: { quick?: boolean } = {}): Promise<string[]> {
  return sweep({ passages: opts.quick ? 20_000 : 100_000 });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU seconds (user + system) of this process since `since`. */
const cpuSeconds = (since: ReturnType<typeof process.cpuUsage>) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function dirSize(dir: string): Promise<number> {
  let size = 0;
  for await (const e of Deno.readDir(dir)) size += (await Deno.stat(`${dir}/${e.name}`)).size;
  return size;
}

/** Runs the sweep and returns lines of figures. */
export async function sweep(opts: {
  passages?: number;
  exponents?: number[];
  lengths?: number[];
  queries?: number;
  rounds?: number;
  exportDir?: string;
  keepDir?: string;
} = {}): Promise<string[]> {
  const n = opts.passages ?? 100_000;
  const rounds = opts.rounds ?? 3;
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    if (import.meta.main) console.log(line);
  };
  for (const exponent of opts.exponents ?? [0.9, 1.0, 1.2]) {
    const tag = `bm25 sweep: ${n} passages, zipf ${exponent.toFixed(1)}`;
    const kept = opts.keepDir ? `${opts.keepDir}/${n}-zipf${exponent.toFixed(1)}` : undefined;
    const dir = opts.exportDir ? `${opts.exportDir}/zipf${exponent.toFixed(1)}` : undefined;
    let index: Bm25Index;
    if (kept && await exists(`${kept}/manifest.json`)) {
      index = await Bm25Index.load(kept);
      log(`${tag}: index loaded from ${kept}`);
    } else {
      const { docs } = generateCollection(n, 0, 42, exponent);
      const t = performance.now();
      const cpu = process.cpuUsage();
      index = Bm25Index.build(docs);
      const buildS = (performance.now() - t) / 1000;
      const buildCpu = cpuSeconds(cpu);
      const tmp = kept ?? `${await Deno.makeTempDir({ prefix: "bm25-sweep-" })}/index`;
      await index.save(tmp);
      const size = await dirSize(tmp);
      if (!kept) await Deno.remove(dirname(tmp), { recursive: true });
      log(
        `${tag}: build ${buildS.toFixed(1)} s (${buildCpu.toFixed(1)} CPU s), index ${
          (size / 2 ** 20).toFixed(0)
        } MiB`,
      );
      if (dir) {
        await Deno.mkdir(dir, { recursive: true });
        await Deno.writeTextFile(
          `${dir}/docs.tsv`,
          docs.map((d) => `${d.id}\t${d.text}`).join("\n") + "\n",
        );
      }
    }
    index.search("warm up the norms and bounds", 100);
    for (const words of opts.lengths ?? [5, 20, 50, 80]) {
      const text = textGenerator(1000 + words, 300_000, exponent);
      const queries = Array.from(
        { length: opts.queries ?? 100 },
        (_, i) => ({ id: `q${i}`, text: text(words) }),
      );
      const top10 = queries.map((q) => index.search(q.text, 100).slice(0, 10));
      if (dir) {
        await Deno.writeTextFile(
          `${dir}/queries_${words}.tsv`,
          queries.map((q) => `${q.id}\t${q.text}`).join("\n") + "\n",
        );
        await Deno.writeTextFile(
          `${dir}/crux_top10_${words}.tsv`,
          top10.flatMap((hits, i) =>
            hits.map((h, r) => `${queries[i].id}\t${r + 1}\t${h.docId}\t${h.score}\n`)
          ).join(""),
        );
      }
      for (const q of queries) index.search(q.text, 100);
      const rates: number[] = [];
      const cpuRates: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const t = performance.now();
        const cpu = process.cpuUsage();
        for (const q of queries) index.search(q.text, 100);
        rates.push(queries.length / ((performance.now() - t) / 1000));
        cpuRates.push(queries.length / cpuSeconds(cpu));
      }
      log(
        `${tag}, ${words}-word queries: ${median(rates).toFixed(1)} queries/s ` +
          `(top 100, median of ${rounds}; min ${Math.min(...rates).toFixed(1)}, max ${
            Math.max(...rates).toFixed(1)
          }); ${median(cpuRates).toFixed(1)} per CPU second`,
      );
    }
  }
  return lines;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      passages: { type: "string" },
      export: { type: "string" },
      exponents: { type: "string" },
      lengths: { type: "string" },
      queries: { type: "string" },
      rounds: { type: "string" },
      keep: { type: "string" },
    },
  });
  const list = (s?: string) => s?.split(",").map(Number);
  await sweep({
    passages: values.passages ? Number(values.passages) : undefined,
    exportDir: values.export,
    exponents: list(values.exponents),
    lengths: list(values.lengths),
    queries: values.queries ? Number(values.queries) : undefined,
    rounds: values.rounds ? Number(values.rounds) : undefined,
    keepDir: values.keep,
  });
}
