/**
 * Converts `trec_eval -q` output (read on stdin) into a JSON golden keyed by the
 * workbench's measure strings:
 *
 *     trec_eval -q ... q.qrels r.run | deno run -A convert_trec_eval.ts \
 *       --fixture ties --variant base --command "trec_eval ..." \
 *       --qrels trec/fixtures/ties.qrels --run trec/fixtures/ties.run --trec-eval-run ...
 *
 * Paths are relative to this folder and recorded with their SHA-256, so a test
 * can tell when a fixture no longer matches its golden.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";

/** Variants: trec_eval flags and the matching workbench options. */
export const VARIANTS = {
  base: { flags: [] as string[], complete: false, rel: 1 },
  complete: { flags: ["-c"], complete: true, rel: 1 },
  rel2: { flags: ["-l", "2"], complete: false, rel: 2 },
} as const;

/** Name of a variant. */
export type Variant = keyof typeof VARIANTS;

/** Measures requested from trec_eval for every fixture. */
export const TREC_MEASURES = [
  "-m",
  "num_q",
  "-m",
  "P.5,10,20",
  "-m",
  "recall.5,10,100",
  "-m",
  "map",
  "-m",
  "map_cut.10,100",
  "-m",
  "Rprec",
  "-m",
  "recip_rank",
  "-m",
  "ndcg_cut.5,10,20",
];

/** Counts trec_eval prints (sums in the summary); kept for reference, not compared. */
const COUNTS = new Set(["num_ret", "num_rel", "num_rel_ret"]);

/**
 * Maps a trec_eval measure name to the workbench measure string.
 *
 * @param name trec_eval name such as `P_10`, `map_cut_100`, `ndcg_cut_5`.
 * @param rel Relevance level of the run (`-l`); added as `(rel=N)` when not 1,
 *   except for nDCG, whose gains are the grades whatever the level.
 * @returns The workbench string, e.g. `P@10`, `AP(rel=2)@100`, `nDCG@5`.
 * @throws {Error} For a name this converter does not know.
 */
export function workbenchName(name: string, rel: number): string {
  const p = rel === 1 ? "" : `(rel=${rel})`;
  let m: RegExpMatchArray | null;
  if ((m = name.match(/^P_(\d+)$/))) return `P${p}@${m[1]}`;
  if ((m = name.match(/^recall_(\d+)$/))) return `R${p}@${m[1]}`;
  if ((m = name.match(/^map_cut_(\d+)$/))) return `AP${p}@${m[1]}`;
  if ((m = name.match(/^ndcg_cut_(\d+)$/))) return `nDCG@${m[1]}`;
  if (name === "map") return `AP${p}`;
  if (name === "Rprec") return `RPrec${p}`;
  if (name === "recip_rank") return `RR${p}`;
  throw new Error(`Unknown trec_eval measure "${name}": add it to workbenchName`);
}

/** A converted golden. */
export interface TrecGolden {
  fixture: string;
  variant: Variant;
  trecEval: string;
  command: string;
  inputs: Record<string, { file: string; sha256: string }>;
  options: { complete: boolean; rel: number };
  topics: number;
  aggregate: Record<string, number>;
  perQuery: Record<string, Record<string, number>>;
  counts: Record<string, Record<string, number>>;
}

/**
 * Parses trec_eval's three-column output into aggregate and per-topic values.
 *
 * @param text Output of `trec_eval -q` (lines `measure<TAB>topic<TAB>value`).
 * @param rel Relevance level used for the run.
 * @returns Aggregate values, per-topic values, counts and `num_q`.
 * @throws {Error} When a line does not have three columns.
 */
export function parseTrecEvalOutput(text: string, rel: number) {
  const aggregate: Record<string, number> = {};
  const perQuery: Record<string, Record<string, number>> = {};
  const counts: Record<string, Record<string, number>> = {};
  let topics = NaN;
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const cols = line.split("\t").map((c) => c.trim());
    if (cols.length !== 3) {
      throw new Error(
        `Cannot read trec_eval output line ${i + 1}: expected 3 columns, found ${cols.length}`,
      );
    }
    const [name, topic, raw] = cols;
    if (name === "runid") return;
    if (name === "num_q") {
      topics = Number(raw);
      return;
    }
    if (COUNTS.has(name)) {
      (counts[topic] ??= {})[name] = Number(raw);
      return;
    }
    const key = workbenchName(name, rel);
    if (topic === "all") aggregate[key] = Number(raw);
    else (perQuery[topic] ??= {})[key] = Number(raw);
  });
  return { aggregate, perQuery, counts, topics };
}

async function sha256(path: string): Promise<string> {
  return createHash("sha256").update(await Deno.readFile(path)).digest("hex");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      fixture: { type: "string" },
      variant: { type: "string" },
      command: { type: "string" },
      qrels: { type: "string" },
      run: { type: "string" },
      "trec-eval-run": { type: "string" },
      base: { type: "string", default: "." },
      version: { type: "string", default: "trec_eval 10.0" },
    },
  });
  const variant = values.variant as Variant;
  if (!(variant in VARIANTS)) {
    throw new Error(`Unknown variant "${values.variant}": use base, complete or rel2`);
  }
  const { complete, rel } = VARIANTS[variant];
  const text = await new Response(Deno.stdin.readable).text();
  const parsed = parseTrecEvalOutput(text, rel);
  const inputs: TrecGolden["inputs"] = {};
  for (
    const [k, v] of [["qrels", values.qrels], ["run", values.run], [
      "trecEvalRun",
      values["trec-eval-run"],
    ]]
  ) {
    if (v) inputs[k!] = { file: v, sha256: await sha256(`${values.base}/${v}`) };
  }
  const golden: TrecGolden = {
    fixture: values.fixture!,
    variant,
    trecEval: values.version!,
    command: values.command!,
    inputs,
    options: { complete, rel },
    ...parsed,
  };
  console.log(JSON.stringify(golden, null, 1));
}
