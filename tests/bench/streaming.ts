/**
 * Large-file benchmark of the streamed readers, one line per goal:
 *
 * - `crux eval` on a 20,000 x 1,000 run (20M lines, about 660 MB) with 1M qrels
 *   lines, measures AP nDCG@10 R@1000: wall time and peak memory, and the values
 *   against trec_eval's when `TREC_EVAL=path/to/trec_eval` is set (same files, same run);
 * - `crux eval` on 5,000 x 100, whole process, with its start-up time (the
 *   process loading the command and printing its help) and Deno's own start-up;
 * - `crux import run` of a 2M-line run into a fresh workspace: peak memory.
 *
 * Peak memory is the maximum resident set size from `/usr/bin/time -v`. Files are
 * generated in a temporary folder and removed afterwards. `--quick` divides the
 * sizes by 10; `--parts small,large,import` runs only those parts.
 *
 * @module
 */
import { join } from "node:path";
import { seededRandom } from "@lib/metrics/mod.ts";

const ROOT = new URL("../../", import.meta.url);
const MAIN = new URL("lib/cli/main.ts", ROOT).pathname;
const CONFIG = new URL("deno.json", ROOT).pathname;

/** Writes a run of `topics x depth` lines (ids from a pool of 3 x depth) and `judged` qrels per topic. */
async function writeData(dir: string, topics: number, depth: number, judged: number) {
  const random = seededRandom(2026);
  const enc = new TextEncoder();
  using run = await Deno.open(join(dir, "run.txt"), { write: true, create: true });
  using qrels = await Deno.open(join(dir, "qrels.txt"), { write: true, create: true });
  const pick = (n: number) => {
    const docs = new Set<number>();
    while (docs.size < n) docs.add(Math.floor(random() * depth * 3));
    return [...docs];
  };
  let lines: string[] = [];
  let judgments: string[] = [];
  for (let t = 0; t < topics; t++) {
    pick(depth).forEach((d, r) => {
      lines.push(`${t} Q0 d${d} ${r + 1} ${(depth - r + random()).toFixed(4)} bench\n`);
    });
    for (const d of pick(judged)) judgments.push(`${t} 0 d${d} ${Math.floor(random() * 3)}\n`);
    if (lines.length >= 200_000 || t === topics - 1) {
      await run.write(enc.encode(lines.join("")));
      await qrels.write(enc.encode(judgments.join("")));
      lines = [];
      judgments = [];
    }
  }
}

interface Timed {
  ms: number;
  /** User plus system CPU time. */
  cpuMs: number;
  peakMb: number;
  stdout: string;
}

/** Runs a command under `/usr/bin/time -v`: wall time and peak resident memory. */
async function timed(command: string, args: string[]): Promise<Timed> {
  const start = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-v", command, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${command} ${args.join(" ")} failed:\n${err.slice(-2000)}`);
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(err)?.[1] ?? NaN);
  const cpuMs = 1000 * (Number(/User time \(seconds\): ([\d.]+)/.exec(err)?.[1] ?? NaN) +
    Number(/System time \(seconds\): ([\d.]+)/.exec(err)?.[1] ?? NaN));
  return { ms, cpuMs, peakMb: kb / 1024, stdout: new TextDecoder().decode(out.stdout) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const crux = (args: string[]) =>
  timed(Deno.execPath(), ["run", "-A", "--config", CONFIG, MAIN, ...args]);

/** trec_eval's summary values (`measure all value`). */
function trecEvalValues(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const [m, q, v] = line.trim().split(/\s+/);
    if (q === "all") out[m] = Number(v);
  }
  return out;
}

/** The large evaluation: crux eval (and trec_eval) on the same files. */
async function largeEval(dir: string, scale: number, trecEval?: string): Promise<string[]> {
  const topics = 20_000 / scale;
  await writeData(dir, topics, 1000, 50);
  const run = join(dir, "run.txt");
  const qrels = join(dir, "qrels.txt");
  const size = (await Deno.stat(run)).size;
  const ours = await crux([
    "eval",
    "--run",
    run,
    "--qrels",
    qrels,
    "-m",
    "AP nDCG@10 R@1000",
    "--format",
    "json",
  ]);
  const values = JSON.parse(ours.stdout).aggregate as Record<string, number>;
  const shown = (v: Record<string, number>, keys: string[]) =>
    keys.map((k) => `${k} ${v[k]?.toFixed(4)}`).join(", ");
  const lines = [
    `crux eval, ${topics * 1000} run lines (${(size / 2 ** 20).toFixed(0)} MiB), ${
      topics * 50
    } qrels lines, AP nDCG@10 R@1000: ${(ours.ms / 1000).toFixed(1)} s, peak ${
      ours.peakMb.toFixed(0)
    } MB (goal <= 400 MB); ${shown(values, ["AP", "nDCG@10", "R@1000"])}`,
  ];
  if (trecEval) {
    const args = ["-m", "map", "-m", "ndcg_cut.10", "-m", "recall.1000", qrels, run];
    const theirs = await timed(trecEval, args);
    const te = trecEvalValues(theirs.stdout);
    const same = [["AP", "map"], ["nDCG@10", "ndcg_cut_10"], ["R@1000", "recall_1000"]]
      .every(([a, b]) => Math.abs(values[a] - te[b]) < 0.00005);
    lines.push(
      `trec_eval, same files: ${(theirs.ms / 1000).toFixed(1)} s, peak ${
        theirs.peakMb.toFixed(0)
      } MB; ${shown(te, ["map", "ndcg_cut_10", "recall_1000"])}; values ${
        same ? "identical to 4 decimals" : "DIFFER"
      }; crux eval / trec_eval time ${(ours.ms / theirs.ms).toFixed(2)} (goal <= 0.25)`,
    );
  }
  return lines;
}

/** The small evaluation, whole process, and the start-up it includes. */
async function smallEval(dir: string, scale: number, trecEval?: string): Promise<string[]> {
  const topics = 5000 / scale;
  await writeData(dir, topics, 100, 40);
  const run = join(dir, "run.txt");
  const qrels = join(dir, "qrels.txt");
  const empty = join(dir, "empty.ts");
  await Deno.writeTextFile(empty, "");
  const args = ["eval", "--run", run, "--qrels", qrels, "-m", "P@10 R@100 AP RPrec RR nDCG@10"];
  const teArgs = [
    ...["P.10", "recall.100", "map", "Rprec", "recip_rank", "ndcg_cut.10"].flatMap((m) => [
      "-m",
      m,
    ]),
    qrels,
    run,
  ];
  // A tiny run (3 topics x 10, with their qrels) for the start-up of a real evaluation.
  const tinyRun = join(dir, "tiny_run.txt");
  const tinyQrels = join(dir, "tiny_qrels.txt");
  const tiny = (await Deno.readTextFile(run)).split("\n").filter((l) => /^[012] /.test(l));
  await Deno.writeTextFile(tinyRun, tiny.filter((l) => Number(l.split(" ")[3]) <= 10).join("\n"));
  const tinyJudged = (await Deno.readTextFile(qrels)).split("\n").filter((l) => /^[012] /.test(l));
  await Deno.writeTextFile(tinyQrels, tinyJudged.join("\n") + "\n");
  const tinyArgs = ["eval", "--run", tinyRun, "--qrels", tinyQrels, "-m", "P@10 nDCG@10"];
  const [ours, theirs, help, top, small, deno] = [[], [], [], [], [], []] as Timed[][];
  for (let i = 0; i < 7; i++) { // interleaved, so that all see the same load
    ours.push(await crux([...args, "--format", "json"]));
    help.push(await crux(["eval", "--help"]));
    top.push(await crux(["--help"]));
    small.push(await crux(tinyArgs));
    deno.push(await timed(Deno.execPath(), ["run", empty]));
    if (trecEval) theirs.push(await timed(trecEval, teArgs));
  }
  const ms = (xs: Timed[]) => `${median(xs.map((x) => x.ms)).toFixed(0)} ms`;
  const cpu = (xs: Timed[]) => `${median(xs.map((x) => x.cpuMs)).toFixed(0)} ms`;
  const lines = [
    `crux eval, ${topics} x 100, whole process: median ${ms(ours)} over 7 (CPU ${cpu(ours)}); ` +
    `start-up (crux eval --help, loading the command): ${ms(help)} (CPU ${cpu(help)}), of which ` +
    `Deno itself (an empty script) ${ms(deno)} (CPU ${cpu(deno)})`,
    `start-up: crux --help ${ms(top)} (CPU ${cpu(top)}); crux eval on a 3 x 10 run ${ms(small)} ` +
    `(CPU ${cpu(small)})`,
  ];
  if (trecEval) {
    const ratio = (f: (x: Timed) => number) =>
      (median(ours.map(f)) / median(theirs.map(f))).toFixed(2);
    lines.push(
      `trec_eval, same files: median ${ms(theirs)} (CPU ${cpu(theirs)}); crux eval / trec_eval ${
        ratio((x) => x.ms)
      } wall, ${ratio((x) => x.cpuMs)} CPU (goal <= 0.33)`,
    );
  }
  return lines;
}

/** `crux import run` of a 2M-line run: peak memory. */
async function importRun(dir: string, scale: number): Promise<string[]> {
  await writeData(dir, 2000 / scale, 1000, 1);
  const ws = join(dir, "ws");
  const r = await crux(["import", "run", "--workspace", ws, "--file", join(dir, "run.txt")]);
  return [
    `crux import run, ${(2_000_000 / scale).toLocaleString("en")} lines: ${
      (r.ms / 1000).toFixed(1)
    } s, peak ${r.peakMb.toFixed(0)} MB (goal <= 400 MB)`,
  ];
}

/**
 * Runs the benchmark.
 *
 * @param opts `quick`: a tenth of the sizes.
 * @returns Lines of figures.
 */
export async function bench(
  opts: { quick?: boolean; parts?: string[] } = {},
): Promise<string[]> {
  const scale = opts.quick ? 10 : 1;
  const trecEval = Deno.env.get("TREC_EVAL");
  const lines: string[] = [];
  if (!trecEval) lines.push("(TREC_EVAL not set: trec_eval is not measured)");
  const parts = { small: smallEval, large: largeEval, import: importRun };
  for (const [name, part] of Object.entries(parts)) {
    if (opts.parts && !opts.parts.includes(name)) continue;
    const dir = await Deno.makeTempDir({ prefix: "crux-stream-bench-" });
    try {
      lines.push(...await part(dir, scale, trecEval));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return lines;
}

if (import.meta.main) {
  // `--parts small,large,import` runs some of the three.
  const at = Deno.args.indexOf("--parts");
  const parts = at >= 0 ? Deno.args[at + 1].split(",") : undefined;
  console.log((await bench({ quick: Deno.args.includes("--quick"), parts })).join("\n"));
}
