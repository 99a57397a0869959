/**
 * BM25 against Lucene 8 in the same run: index time, size on disk and peak
 * memory of whole processes (`crux index` from JSONL against a Lucene indexer of
 * the same passages, one segment), then queries/s of top-100 search for each
 * query length (crux in this process, Lucene in a JVM), with the top 10 of both
 * compared. Timings alternate between the engines and are repeated; ratios are
 * taken within one repetition, so load from other processes affects both.
 *
 * Needs `java`, `javac`, GNU time (`/usr/bin/time`) and Debian's
 * liblucene8-java (jars in /usr/share/java); the Lucene side is
 * `lucene/Bm25Lucene.java`, compiled into the work folder.
 *
 * Run: `deno run -A tests/bench/bm25_lucene.ts [--passages N] [--work DIR]
 * [--repeat 2] [--lengths 5,20,50,80] [--queries 100] [--rounds 3] [--skip-index]`
 * (default 100,000 passages; the CRUX pooled corpus is 565,000). `--work DIR`
 * keeps the generated collection and both indexes; `--skip-index` reuses them.
 *
 * @module
 */
import { parseArgs } from "node:util";
import process from "node:process";
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { Bm25Index } from "@lib/retrieval/mod.ts";
import { generateCollection, textGenerator } from "./bm25.ts";

const JARS = ["lucene-core", "lucene-analyzers-common"];

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
  for await (const e of Deno.readDir(dir)) size += (await Deno.stat(join(dir, e.name))).size;
  return size;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function classPath(): Promise<string> {
  const found: string[] = [];
  for await (const e of Deno.readDir("/usr/share/java")) {
    if (JARS.some((j) => new RegExp(`^${j}-8[\\d.]*\\.jar$`).test(e.name))) {
      found.push(`/usr/share/java/${e.name}`);
    }
  }
  if (found.length !== JARS.length) {
    throw new Error(
      `Cannot find the Lucene 8 jars ${
        JARS.join(", ")
      } in /usr/share/java (found ${found.length}); install Debian's liblucene8-java`,
    );
  }
  return found.join(":");
}

/** Runs a command under GNU time; returns stdout, wall and CPU (user + system) seconds, peak RSS bytes. */
async function timed(
  cmd: string[],
): Promise<{ out: string; wall: number; cpu: number; peak: number }> {
  const { code, stdout, stderr } = await new Deno.Command("/usr/bin/time", {
    args: ["-v", ...cmd],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`Command failed (${code}): ${cmd.join(" ")}\n${err}`);
  const wallText = /Elapsed \(wall clock\) time \([^)]*\): ([\d:.]+)/.exec(err)?.[1];
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1];
  if (!wallText || !rss) throw new Error(`Cannot read GNU time's report for ${cmd[0]}:\n${err}`);
  const wall = wallText.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
  const cpu = Number(/User time \(seconds\): ([\d.]+)/.exec(err)?.[1]) +
    Number(/System time \(seconds\): ([\d.]+)/.exec(err)?.[1]);
  return { out: new TextDecoder().decode(stdout), wall, cpu, peak: Number(rss) * 1024 };
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

/**
 * The `deno task bench` entry: 100,000 passages (20,000 with `quick`), one
 * index repetition; says so and returns when Java or the Lucene jars are missing.
 */
export async function bench(opts: { quick?: boolean } = {}): Promise<string[]> {
  try {
    await classPath();
    await new Deno.Command("javac", { args: ["-version"], stdout: "null", stderr: "null" })
      .output();
  } catch (error) {
    return [`bm25 vs lucene: skipped (${error instanceof Error ? error.message : error})`];
  }
  return compare({ passages: opts.quick ? 20_000 : 100_000, repeat: 1 });
}

/** Runs the comparison and returns lines of figures. */
export async function compare(opts: {
  passages?: number;
  work?: string;
  repeat?: number;
  lengths?: number[];
  queries?: number;
  rounds?: number;
  skipIndex?: boolean;
  log?: (line: string) => void;
}): Promise<string[]> {
  const n = opts.passages ?? 100_000;
  const work = opts.work ?? await Deno.makeTempDir({ prefix: "bm25-lucene-" });
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    opts.log?.(line);
  };
  await Deno.mkdir(work, { recursive: true });
  const jsonl = join(work, "docs.jsonl");
  const tsv = join(work, "docs.tsv");
  if (!(await exists(jsonl)) || !(await exists(tsv))) {
    const { docs } = generateCollection(n, 0, 42, 1.0);
    await Deno.writeTextFile(
      jsonl,
      docs.map((d) => JSON.stringify({ id: d.id, contents: d.text })).join("\n") + "\n",
    );
    await Deno.writeTextFile(tsv, docs.map((d) => `${d.id}\t${d.text}`).join("\n") + "\n");
  }
  const cp = await classPath();
  const classes = join(work, "java");
  await Deno.mkdir(classes, { recursive: true });
  const source = fromFileUrl(new URL("./lucene/Bm25Lucene.java", import.meta.url));
  await timed(["javac", "-d", classes, "-cp", cp, source]);
  const java = ["java", "-Xmx2g", "-cp", `${classes}:${cp}`, "Bm25Lucene"];
  const cruxDir = join(work, "crux");
  const luceneDir = join(work, "lucene");
  const main = fromFileUrl(new URL("../../lib/cli/main.ts", import.meta.url));
  const tag = `bm25 vs lucene: ${n} passages`;
  if (!opts.skipIndex) {
    for (let r = 0; r < (opts.repeat ?? 2); r++) {
      const crux = await timed([
        Deno.execPath(),
        "run",
        "-A",
        main,
        "index",
        "--passages",
        jsonl,
        "--out",
        cruxDir,
      ]);
      await Deno.remove(luceneDir, { recursive: true }).catch(() => {});
      const lucene = await timed([...java, "index", tsv, luceneDir]);
      const cs = await dirSize(cruxDir);
      const ls = await dirSize(luceneDir);
      const run = (x: { wall: number; cpu: number; peak: number }, size: number) =>
        `${x.wall.toFixed(1)} s (${x.cpu.toFixed(1)} CPU s), ${mib(size)}, peak ${mib(x.peak)}`;
      log(
        `${tag}: index (whole process) crux ${run(crux, cs)}; lucene ${run(lucene, ls)}; ratio ` +
          `time ${(crux.wall / lucene.wall).toFixed(2)}x wall, ${
            (crux.cpu / lucene.cpu).toFixed(2)
          }x CPU, size ${(cs / ls).toFixed(2)}x, peak ${(crux.peak / lucene.peak).toFixed(2)}x`,
      );
    }
  }
  const index = await Bm25Index.load(cruxDir);
  index.search("warm up the norms and bounds", 100);
  const rounds = opts.rounds ?? 3;
  for (const words of opts.lengths ?? [5, 20, 50, 80]) {
    const text = textGenerator(1000 + words, 300_000, 1.0);
    const queries = Array.from(
      { length: opts.queries ?? 100 },
      (_, i) => ({ id: `q${i}`, text: text(words) }),
    );
    const qfile = join(work, `queries_${words}.tsv`);
    await Deno.writeTextFile(qfile, queries.map((q) => `${q.id}\t${q.text}`).join("\n") + "\n");
    const mine = new Map(queries.map((q) => [q.id, index.search(q.text, 100).slice(0, 10)]));
    const cruxRates: number[] = [];
    const cruxCpu: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      for (const q of queries) index.search(q.text, 100);
      const u = process.cpuUsage(cpu);
      cruxRates.push(queries.length / ((performance.now() - t) / 1000));
      cruxCpu.push(queries.length / ((u.user + u.system) / 1e6));
    }
    const topFile = join(work, `lucene_top10_${words}.tsv`);
    const lucene = await timed([
      ...java,
      "search",
      luceneDir,
      qfile,
      "100",
      String(rounds),
      topFile,
    ]);
    const [, lqs, lcpu] = lucene.out.trim().split(/\s+/).map(Number);
    const theirs = new Map<string, string[]>();
    for (const line of (await Deno.readTextFile(topFile)).split("\n")) {
      if (!line) continue;
      const [q, , doc] = line.split("\t");
      if (!theirs.has(q)) theirs.set(q, []);
      theirs.get(q)!.push(doc);
    }
    let same = 0;
    for (const q of queries) {
      const a = (mine.get(q.id) ?? []).map((h) => h.docId).join(" ");
      if (a === (theirs.get(q.id) ?? []).join(" ")) same++;
    }
    const qs = median(cruxRates);
    const cpuQs = median(cruxCpu);
    log(
      `${tag}, ${words}-word queries: crux ${qs.toFixed(1)} q/s (${
        cpuQs.toFixed(1)
      } per CPU s), lucene ${lqs.toFixed(1)} q/s (${lcpu.toFixed(1)} per CPU s); ratio ${
        (qs / lqs).toFixed(2)
      }x wall, ${(cpuQs / lcpu).toFixed(2)}x CPU; top 10 identical for ${same}/${queries.length}`,
    );
  }
  if (!opts.work) await Deno.remove(work, { recursive: true });
  return lines;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      passages: { type: "string" },
      work: { type: "string" },
      repeat: { type: "string" },
      lengths: { type: "string" },
      queries: { type: "string" },
      rounds: { type: "string" },
      "skip-index": { type: "boolean" },
    },
  });
  const num = (s?: string) => (s === undefined ? undefined : Number(s));
  await compare({
    passages: num(values.passages),
    work: values.work,
    repeat: num(values.repeat),
    lengths: values.lengths?.split(",").map(Number),
    queries: num(values.queries),
    rounds: num(values.rounds),
    skipIndex: values["skip-index"],
    log: console.log,
  });
}
