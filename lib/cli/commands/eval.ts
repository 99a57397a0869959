/**
 * `crux eval`: evaluates TREC runs with trec_eval-compatible relevance
 * measures, alpha-nDCG and CRUX coverage/density.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { basename } from "node:path";
import type { Command, Io } from "../command.ts";
import { UsageError } from "../command.ts";
import type { RunRow } from "@lib/types/mod.ts";
// The modules `crux eval` runs on, imported one by one rather than through the
// areas' mod.ts: loading modules is a visible share of a run's time. The strict
// parsers, the ratings and corpus readers and the tokenizer load only when used.
import { evaluate, type EvaluationResult } from "@lib/metrics/evaluate.ts";
import { type EvaluationFormat, formatEvaluation } from "@lib/metrics/format_evaluation.ts";
import { type JudgedInputs, prepareJudged } from "@lib/metrics/judged.ts";
import type { Measure } from "@lib/metrics/measure.ts";
import { parseMeasure } from "@lib/metrics/parse_measure.ts";
import { splitMeasureList } from "@lib/metrics/split_measure_list.ts";
import { type RunTable, scanRunTable } from "@lib/metrics/run_table.ts";
import { scanQrelsTable } from "@lib/metrics/qrels_table.ts";
import { scanQrels } from "@lib/metrics/scan_trec.ts";
import { InputError, type Problem } from "@lib/formats/input_error.ts";

const HELP =
  `crux eval - evaluate runs (trec_eval-compatible, alpha-nDCG, CRUX coverage and density)

Usage:
  crux eval --run RUN [--run RUN2 ...] -m "MEASURES" [judgment files] [options]

Judgments (give at least one):
  --qrels FILE        TREC qrels "topic iteration docid grade". With --judgments, CRUX
                      qrels: grade 3 = required passage (the oracle set P*).
  --div-qrels FILE    Diversity (subtopic) qrels for alpha-nDCG: the subtopic id goes in
                      the iteration column and the grade is 0/1, e.g. "q1 2 d7 1".
                      CRUX numbers sub-questions from 1. Without this file, alpha-nDCG
                      uses ratings >= --tau from --judgments as subtopic judgments.
  --judgments FILE    CRUX ratings JSONL ({"example_id","pid","rating"} or
                      {"id","docid","rating"}); -1 ratings count as 0 and are reported.
                      Without --qrels: a passage is relevant (grade 1) if any rating is
                      >= tau, and P* is every judged passage of the topic.
  --corpus FILE       JSONL {"id","contents"|"text"}: texts for Den's token counts.

Options:
  -m, --measures LIST Measures separated by spaces or commas (repeatable), e.g.
                      "P@10 nDCG@10 AP RR alpha_nDCG@20 Cov@oracle Den@oracle".
                      trec_eval names work too (ndcg_cut_10, P_10, map, recip_rank).
                      Den defaults to w=0.5 (CRUX paper); Den(w=1) is the original code's.
  --tau N             Rating counted as answered, for Cov/Den and derived qrels (default 3).
  --rel N             Minimum grade counted as relevant, trec_eval -l (default 1).
  --per-query         Also print per-topic values.
  --complete          Average over every judged topic; topics missing from a run score 0
                      (trec_eval -c). Default: topics in both the run and the judgments.
  --order ORDER       score (trec_eval: score desc, docid desc; default) or rank (ndeval).
  --tokenizer NAME    llama3.1 (default) or whitespace, for Den's token counts.
  --format FORMAT     table (default), json or csv. json prints one object
                      {"aggregate": {...}, "topics": N, "perQuery": [...]} (perQuery only
                      with --per-query); several runs give {"runs": [...]}.
  -h, --help          Show this help.

Each run file is one run, named by its first line's tag column. Repeated documents
keep their best-ranked occurrence and are counted. Diagnostics (topics averaged,
duplicates, left-out topics, tokenizer) go to stderr, and under the table as a footer.

Example:
  crux eval --run bm25.run --qrels qrels.txt --judgments judge.jsonl -m "nDCG@10 Cov@oracle"
`;

interface Options {
  runs: string[];
  qrels?: string;
  divQrels?: string;
  judgments?: string;
  corpus?: string;
  measures: Measure[];
  tau: number;
  rel?: number;
  perQuery: boolean;
  complete: boolean;
  order: "score" | "rank";
  tokenizer: "llama3.1" | "whitespace";
  format: EvaluationFormat;
}

function choice<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  name: string,
): T {
  const v = value ?? allowed[0];
  if (!(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got "${v}"`);
  }
  return v as T;
}

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(value)) {
    throw new UsageError(`--${name} must be a number, got "${value}"`);
  }
  return Number(value);
}

function parseOptions(args: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      options: {
        run: { type: "string", multiple: true },
        qrels: { type: "string" },
        "div-qrels": { type: "string" },
        judgments: { type: "string" },
        corpus: { type: "string" },
        measures: { type: "string", short: "m", multiple: true },
        tau: { type: "string" },
        rel: { type: "string" },
        "per-query": { type: "boolean" },
        complete: { type: "boolean" },
        order: { type: "string" },
        tokenizer: { type: "string" },
        format: { type: "string" },
      },
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!parsed.run?.length) throw new UsageError("give at least one --run file");
  if (!parsed.qrels && !parsed["div-qrels"] && !parsed.judgments) {
    throw new UsageError("give judgments: --qrels, --div-qrels and/or --judgments");
  }
  let measures: Measure[];
  try {
    measures = (parsed.measures ?? []).flatMap(splitMeasureList).map((m) => parseMeasure(m));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!measures.length) throw new UsageError('give measures with -m, e.g. -m "P@10 nDCG@10"');
  if (measures.some((m) => m.name === "Den") && !parsed.corpus) {
    throw new UsageError("Den needs --corpus (the passage texts, for token counts)");
  }
  return {
    runs: parsed.run,
    qrels: parsed.qrels,
    divQrels: parsed["div-qrels"],
    judgments: parsed.judgments,
    corpus: parsed.corpus,
    measures,
    tau: numberOption(parsed.tau, "tau") ?? 3,
    rel: numberOption(parsed.rel, "rel"),
    perQuery: parsed["per-query"] ?? false,
    complete: parsed.complete ?? false,
    order: choice(parsed.order, ["score", "rank"] as const, "order"),
    tokenizer: choice(parsed.tokenizer, ["llama3.1", "whitespace"] as const, "tokenizer"),
    format: choice(parsed.format, ["table", "json", "csv"] as const, "format"),
  };
}

/**
 * Reads a whole file into one buffer of its size (about twice as fast as
 * `Deno.readFile` on large runs, which copies the bytes once more).
 */
async function readWhole(path: string): Promise<Uint8Array> {
  using file = await Deno.open(path);
  const info = await file.stat();
  if (!info.isFile) return await Deno.readFile(path); // a pipe: its size is unknown
  const bytes = new Uint8Array(info.size);
  let size = 0;
  while (size < bytes.length) {
    const n = await file.read(bytes.subarray(size));
    if (n === null) return bytes.subarray(0, size); // the file shrank
    size += n;
  }
  if (await file.read(new Uint8Array(1)) !== null) return await Deno.readFile(path); // it grew
  return bytes;
}

/** Reads a file, turning a missing or unreadable file into a clear message. */
async function readBytes(path: string, what: string): Promise<Uint8Array> {
  try {
    return await readWhole(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "the file does not exist"
      : (error as Error).message;
    throw new Error(`Cannot read ${what} "${path}": ${reason}; check the path`);
  }
}

/** Reads a text file, turning a missing or unreadable file into a clear message. */
async function readText(path: string, what: string): Promise<string> {
  return new TextDecoder().decode(await readBytes(path, what));
}

/**
 * Reads one run file as one run named by its first tag (file name if none).
 * The fast scanner reads well-formed files as bytes; the strict parser
 * explains the rest.
 */
async function loadRun(path: string, pending: Promise<Uint8Array>): Promise<RunTable | RunRow[]> {
  const bytes = await pending;
  let rows: RunTable | RunRow[] | undefined = scanRunTable(bytes);
  if (!rows) {
    const text = new TextDecoder().decode(bytes);
    const first = /^[ \t]*(\S+[ \t]+){5}(\S+)/m.exec(text);
    const { parseRun } = await import("@lib/formats/trec_run.ts");
    rows = parseRun(text, { file: path, run: first?.[2] ?? basename(path) });
  }
  if (("size" in rows ? rows.size : rows.length) === 0) {
    throw new Error(`Cannot evaluate run "${path}": the file has no rows`);
  }
  return rows;
}

/** Reads a qrels file (fast path first, strict parser for errors). */
async function loadQrels(path: string): Promise<Pick<JudgedInputs, "qrels" | "qrelsTable">> {
  const bytes = await readBytes(path, "qrels");
  const qrelsTable = scanQrelsTable(bytes);
  if (qrelsTable) return { qrelsTable };
  const { parseQrels } = await import("@lib/formats/trec_qrels.ts");
  return { qrels: parseQrels(new TextDecoder().decode(bytes), { file: path }) };
}

/** Reads a diversity qrels file, keeping the subtopic column. */
async function loadDiversityQrels(path: string) {
  const text = await readText(path, "diversity qrels");
  const rows = scanQrels(text);
  if (rows) return rows;
  const { parseQrels } = await import("@lib/formats/trec_qrels.ts");
  return parseQrels(text, { file: path });
}

/** Reads CRUX ratings. */
async function loadJudgments(path: string) {
  const { readJudgments } = await import("@lib/formats/crux_judgments.ts");
  return readJudgments(path);
}

/** A token counter over the corpus texts, importing the tokenizer only now. */
async function tokenCounter(path: string, tokenizer: Options["tokenizer"]) {
  const { countTokens } = await import("@lib/text/mod.ts");
  const { readCorpus } = await import("@lib/formats/crux_corpus.ts");
  const texts = new Map<string, string>();
  for (const entry of await readCorpus(path)) texts.set(entry.id, entry.contents);
  const cache = new Map<string, number>();
  return (id: string): number => {
    let n = cache.get(id);
    if (n === undefined) {
      const text = texts.get(id);
      if (text === undefined) {
        throw new Error(
          `Cannot count tokens of "${id}": it is not in the corpus "${path}"; pass the corpus holding every retrieved passage`,
        );
      }
      cache.set(id, n = countTokens(text, { tokenizer }));
    }
    return n;
  };
}

function diagnostics(result: EvaluationResult, opts: Options): string[] {
  const lines: string[] = [];
  for (const run of result.runs) {
    const counts = [...new Set(Object.values(run.counts))];
    const averaged = counts.length === 1
      ? `${counts[0]}`
      : result.measures.map((m) => `${m} ${run.counts[m]}`).join(", ");
    lines.push(
      `# ${run.run}: ${run.topics} topics evaluated (${
        opts.complete ? "every judged topic" : "run ∩ judged"
      }); averaged: ${averaged}`,
    );
    if (run.duplicates) {
      lines.push(`# ${run.run}: ${run.duplicates} repeated documents dropped (best-ranked kept)`);
    }
    if (run.unjudgedTopics.length) {
      lines.push(
        `# ${run.run}: ${run.unjudgedTopics.length} run topics have no judgments (ignored)`,
      );
    }
    const skipped = result.skipped.filter((s) => s.run === run.run);
    const reasons = new Map<string, number>();
    for (const s of skipped) {
      reasons.set(`${s.measure}: ${s.reason}`, (reasons.get(`${s.measure}: ${s.reason}`) ?? 0) + 1);
    }
    for (const [reason, n] of reasons) {
      lines.push(`# ${run.run}: ${n} topics left out of ${reason}`);
    }
  }
  if (result.unparseableRatings) {
    lines.push(`# ${result.unparseableRatings} unparseable ratings (-1) counted as 0`);
  }
  if (opts.measures.some((m) => m.name === "Den")) {
    lines.push(`# tokens counted with the ${opts.tokenizer} tokenizer`);
  }
  return lines;
}

async function run(args: string[], io: Io): Promise<number> {
  const opts = parseOptions(args);
  const inputs: JudgedInputs = {};
  // Every input file is read and checked before anything is evaluated, and the
  // problems of all of them are reported together (file:line each).
  const problems: Problem[] = [];
  let total = 0;
  const attempt = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
      total += error.total;
      return undefined;
    }
  };
  const runBytes = opts.runs.map((path) => readBytes(path, "run"));
  runBytes.forEach((p) => p.catch(() => {})); // errors surface when each is awaited
  if (opts.qrels) Object.assign(inputs, await attempt(() => loadQrels(opts.qrels!)));
  if (opts.divQrels) {
    inputs.diversityQrels = await attempt(() => loadDiversityQrels(opts.divQrels!));
  }
  if (opts.judgments) inputs.judgments = await attempt(() => loadJudgments(opts.judgments!));
  const runs = [];
  for (const [i, path] of opts.runs.entries()) {
    runs.push(await attempt(() => loadRun(path, runBytes[i])));
  }
  if (problems.length) throw new InputError(problems.slice(0, 50), total);
  if (opts.corpus && opts.measures.some((m) => m.name === "Den")) {
    inputs.tokens = await tokenCounter(opts.corpus, opts.tokenizer);
  }
  const judged = prepareJudged(inputs, { tau: opts.tau });
  const evalOpts = { complete: opts.complete, order: opts.order, rel: opts.rel, tau: opts.tau };
  let merged: EvaluationResult | undefined;
  for (const [i, path] of opts.runs.entries()) {
    const result = evaluate(runs[i]!, opts.measures, judged, evalOpts);
    if (!merged) merged = result;
    else {
      if (result.runs.some((r) => merged!.runs.some((m) => m.run === r.run))) {
        throw new Error(
          `Cannot evaluate run "${path}": its name "${
            result.runs[0].run
          }" is already used by another --run file`,
        );
      }
      merged.runs.push(...result.runs);
      merged.perTopic.push(...result.perTopic);
      merged.aggregates.push(...result.aggregates);
      merged.skipped.push(...result.skipped);
    }
  }
  const notes = diagnostics(merged!, opts);
  io.out(formatEvaluation(merged!, opts.format, { perQuery: opts.perQuery }));
  if (opts.format === "table" && notes.length) io.out(notes.join("\n") + "\n");
  if (notes.length) io.err(notes.join("\n") + "\n");
  return 0;
}

/** The `crux eval` command. */
export const evalCommand: Command = {
  name: "eval",
  summary: "Evaluate runs: P, R, AP, nDCG (trec_eval), alpha-nDCG, CRUX Cov/Den",
  help: HELP,
  run,
};
