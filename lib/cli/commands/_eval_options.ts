/**
 * `crux eval`'s command-line options, parsed and checked (private to the command).
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/crux_defaults.ts";
import { UsageError } from "../command.ts";
import { parseFlags } from "./_eval_flags.ts";
import type { EvaluationFormat } from "@lib/metrics/format_evaluation.ts";
import type { Measure } from "@lib/metrics/measure.ts";
import { parseMeasure } from "@lib/metrics/parse_measure.ts";
import { formatMeasure } from "@lib/metrics/format_measure.ts";
import { splitMeasureList } from "@lib/metrics/split_measure_list.ts";

/** What `crux eval` was asked to do. */
export interface EvalOptions {
  runs: string[];
  /** Name given to each run with `--run FILE=NAME` (undefined: the file's tag). */
  runNames: (string | undefined)[];
  /** `--aligned-to RUN`: the judgments file is one JSON document of ratings per ranked passage. */
  alignedTo?: string;
  qrels?: string;
  divQrels?: string;
  judgments?: string;
  corpus?: string;
  /** The requested measures, each once (by key under `--tau`/`--rel`), in first-seen order. */
  measures: Measure[];
  /** `--tau`: default `tau` of measures whose string gives none, and for derived qrels (3). */
  tau: number;
  /** `--rel`: default `rel` of measures whose string gives none; absent = declared (1). */
  rel?: number;
  perQuery: boolean;
  complete: boolean;
  order: "score" | "rank";
  tokenizer: "llama3.1" | "whitespace";
  format: EvaluationFormat;
  /** `FROM=TO` topic id prefix rewrites for every input file (`--rewrite`), checked. */
  rewrite: string[];
}

/**
 * `FILE=NAME` names a run (so two files tagged alike can be compared); a value
 * whose text after the last `=` has a slash, or is empty, is a plain file path.
 */
function splitRunName(value: string): { file: string; name?: string } {
  const eq = value.lastIndexOf("=");
  if (eq <= 0) return { file: value };
  const name = value.slice(eq + 1);
  if (name === "" || /[\/\s]/.test(name)) return { file: value };
  return { file: value.slice(0, eq), name };
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

/** An integer option within `[min, max]`; `what` completes "must be an integer ...". */
function integerOption(
  value: string | undefined,
  name: string,
  what: string,
  min = -Infinity,
  max = Infinity,
): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    throw new UsageError(`--${name} must be an integer ${what}, got "${value}"`);
  }
  return n;
}

/**
 * Parses measure strings, keeping the first of those that evaluate alike: equal
 * under `formatMeasure` with `--tau`/`--rel` as defaults (`map` and `AP`;
 * `Cov@10` and `Cov(tau=4)@10` with `--tau 4`, but not `Cov(tau=3)@10`).
 */
export function parseMeasures(
  lists: readonly string[],
  defaults: Readonly<Record<string, number | undefined>>,
): Measure[] {
  const measures = new Map<string, Measure>();
  try {
    for (const text of lists.flatMap(splitMeasureList)) {
      const m = parseMeasure(text);
      const key = formatMeasure(m, { defaults });
      if (!measures.has(key)) measures.set(key, m);
    }
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return [...measures.values()];
}

/** The `--rewrite` specs, each checked to be `FROM=TO` with a non-empty FROM. */
function rewriteOption(specs: readonly string[] = []): string[] {
  for (const spec of specs) {
    if (spec.indexOf("=") <= 0) {
      throw new UsageError(
        `--rewrite ${
          JSON.stringify(spec)
        }: expected FROM=TO, e.g. --rewrite duc04-testb-=duc04-test-`,
      );
    }
  }
  return [...specs];
}

/**
 * Parses `crux eval`'s arguments.
 *
 * @throws {UsageError} On unknown flags, missing inputs or measures, and bad values.
 */
export function parseOptions(args: string[]): EvalOptions {
  const parsed = parseFlags(args);
  if (!parsed.run?.length) throw new UsageError("give at least one --run file");
  if (parsed["aligned-to"] && !parsed.judgments) {
    throw new UsageError("--aligned-to RUN reads the --judgments file as ratings aligned to RUN");
  }
  if (!parsed.qrels && !parsed["div-qrels"] && !parsed.judgments) {
    throw new UsageError("give judgments: --qrels, --div-qrels and/or --judgments");
  }
  const tau = integerOption(parsed.tau, "tau", "rating from 0 to 5", 0, 5) ??
    CRUX_DEFAULTS.tau;
  const rel = integerOption(parsed.rel, "rel", "grade");
  const measures = parseMeasures(parsed.measures ?? [], { tau, rel });
  if (!measures.length) throw new UsageError('give measures with -m, e.g. -m "P@10 nDCG@10"');
  if (measures.some((m) => m.name === "Den") && !parsed.corpus) {
    throw new UsageError("Den needs --corpus (the passage texts, for token counts)");
  }
  const named = parsed.run.map(splitRunName);
  return {
    runs: named.map((r) => r.file),
    runNames: named.map((r) => r.name),
    alignedTo: parsed["aligned-to"],
    qrels: parsed.qrels,
    divQrels: parsed["div-qrels"],
    judgments: parsed.judgments,
    corpus: parsed.corpus,
    measures,
    tau,
    rel,
    perQuery: parsed["per-query"] ?? false,
    complete: parsed.complete ?? false,
    order: choice(parsed.order, ["score", "rank"] as const, "order"),
    tokenizer: choice(parsed.tokenizer, ["llama3.1", "whitespace"] as const, "tokenizer"),
    format: choice(parsed.format, ["table", "json", "csv"] as const, "format"),
    rewrite: rewriteOption(parsed.rewrite),
  };
}
