/**
 * `crux measure`: a workspace's values for its stored runs, through the same
 * evaluator as `crux eval`, stored in the measure table `measures`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { type Command, type Io, UsageError } from "../command.ts";
import { parseMeasures } from "./_eval_options.ts";
import { evaluationNotes, judgedNotes, oracleSetNote } from "./_eval_notes.ts";
import { formatEvaluation } from "@lib/metrics/mod.ts";
import { openWorkspace, readPassageTokenizer, readRetrievalRunNames } from "@lib/store/mod.ts";
import { type RelevanceSource, workspaceJudged } from "@lib/pipeline/mod.ts";
import {
  measureValues,
  type MeasureValuesResult,
  type MeasureValuesRun,
} from "@lib/methods/mod.ts";

const HELP = `crux measure - a workspace's measures for its stored runs

Usage:
  crux measure --workspace DIR --run NAME [--run NAME ...] -m "MEASURES" [options]

Evaluates runs stored in the workspace (retrieved, reranked or imported) with the
workspace's passage ratings and token counts, through the same evaluator as crux eval,
prints the values (the same JSON as crux eval --format json) and stores them in the
workspace's measure table "measures" (run, topic, measure, judge, source).

Values already stored are reused while their inputs are unchanged: per run and judge, a
fingerprint of the run's rows, the judge's passage ratings, the sub-questions, the
selection's qrels and the token counts is recorded; when it matches, only measures not
yet stored are evaluated, and when it differs the run's stored values of that judge are
discarded and evaluated again. The output is the same either way; a note per run says
how many values were reused and how many computed.

Options:
  --workspace DIR     the experiment workspace (required; never created)
  --run NAME          a stored run (repeatable)
  -m, --measures LIST measures as for crux eval, e.g. "P@10 nDCG@10 alpha_nDCG@10 Cov@10 Den@oracle"
  --relevance SOURCE  where P, R, AP, nDCG and alpha-nDCG take relevance from:
                        selection (default): the selection's qrels crux_pr (3 required,
                          2 neutral, 1 redundant) and diversity qrels crux_div
                        judgments: the ratings alone (relevant at rating >= tau, P* =
                          every rated passage), as crux eval --judgments without --qrels
                      Cov and Den always use the ratings; @oracle cutoffs use P*.
  --judge NAME        judge of the passage ratings (default: the only one)
  --tau N             answerability threshold, 0-5 (default 3)
  --per-query         also per-topic values
  --format FORMAT     table (default), json or csv

Example:
  crux measure --workspace outputs/demo --run bm25 -m "P@10 nDCG@10 Cov@10 Den@oracle"
`;

async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: "string" },
      run: { type: "string", multiple: true },
      measures: { type: "string", short: "m", multiple: true },
      relevance: { type: "string" },
      judge: { type: "string" },
      tau: { type: "string" },
      "per-query": { type: "boolean" },
      format: { type: "string" },
    },
  });
  if (!values.workspace) throw new UsageError("--workspace DIR is required");
  if (!values.run?.length) throw new UsageError("give at least one stored run with --run NAME");
  const tau = values.tau === undefined ? 3 : Number(values.tau);
  if (!Number.isInteger(tau) || tau < 0 || tau > 5) {
    throw new UsageError(`--tau must be an integer rating from 0 to 5, got "${values.tau}"`);
  }
  const source = (values.relevance ?? "selection") as RelevanceSource;
  if (source !== "selection" && source !== "judgments") {
    throw new UsageError(`--relevance must be selection or judgments, not "${values.relevance}"`);
  }
  const format = values.format ?? "table";
  if (!["table", "json", "csv"].includes(format)) {
    throw new UsageError(`--format must be table, json or csv, not "${format}"`);
  }
  const measures = parseMeasures(values.measures ?? [], { tau });
  if (!measures.length) throw new UsageError('give measures with -m, e.g. -m "P@10 Cov@10"');
  try {
    await Deno.stat(join(values.workspace, "workspace.duckdb"));
  } catch {
    throw new Error(
      `Cannot open workspace "${values.workspace}": it has no workspace.duckdb; check --workspace`,
    );
  }
  const ws = await openWorkspace(values.workspace);
  let measured: MeasureValuesResult;
  let evalNotes: string[] = [];
  try {
    const stored = new Set(await readRetrievalRunNames(ws));
    const missing = values.run.filter((r) => !stored.has(r));
    if (missing.length) {
      throw new Error(
        `Workspace "${values.workspace}" has no run ${
          missing.map((m) => `"${m}"`).join(", ")
        }; stored runs: ${[...stored].sort().join(", ") || "none"}`,
      );
    }
    measured = await measureValues(ws, values.run, measures, {
      source,
      tau,
      judge: values.judge,
    });
    // The notes crux eval prints for the same inputs: counts, topics left out, judged@k.
    const tokenizer: "whitespace" | "llama3.1" = await readPassageTokenizer(ws) === "whitespace"
      ? "whitespace"
      : "llama3.1";
    const opts = { measures, complete: false, order: "score" as const, tokenizer };
    const { inputs } = await workspaceJudged(ws, { source, judge: measured.judge });
    const runRows = await Promise.all(values.run.map((r) => ws.runRows(r)));
    evalNotes = [
      ...evaluationNotes(measured.result, opts),
      ...(source === "judgments" ? oracleSetNote(measures, tau) : []),
      ...judgedNotes(runRows, inputs, opts),
      ...unmeasurable(measured.result, {
        source,
        divQrels: (inputs.diversityQrels ?? []).length > 0,
      }),
    ];
  } finally {
    ws.close();
  }
  const { result, judge } = measured;
  const runs = new Map(measured.runs.map((r) => [r.run, r]));
  io.out(
    formatEvaluation(result, format as "table" | "json" | "csv", { perQuery: values["per-query"] }),
  );
  const notes = [
    `# relevance: ${
      source === "selection"
        ? "the selection's qrels (crux_pr 3/2/1, crux_div)"
        : `the ratings alone (relevant at rating >= ${tau})`
    }; ratings by judge "${judge}"; stored in the measure table`,
    ...result.runs.map((r) => `# ${r.run}: ${reuseNote(runs.get(r.run)!)}`),
    ...evalNotes,
  ];
  if (format === "table") io.out(notes.join("\n") + "\n");
  else io.err(notes.join("\n") + "\n");
  return 0;
}

/**
 * Why a measure has no value for a run, and what to do: alpha-nDCG from the
 * selection needs its diversity qrels; any measure needs some evaluated topic
 * with the judgments it reads.
 */
function unmeasurable(
  result: MeasureValuesResult["result"],
  ctx: { source: RelevanceSource; divQrels: boolean },
): string[] {
  const out: string[] = [];
  for (const r of result.runs) {
    for (const key of result.measures) {
      const v = r.aggregate[key];
      if (v !== undefined && v !== null && !Number.isNaN(v)) continue;
      out.push(
        key.startsWith("alpha_nDCG") && ctx.source === "selection" && !ctx.divQrels
          ? `# ${r.run}: ${key} cannot be computed: the workspace has no diversity qrels (crux_div) ` +
            "of a selection; run the select stage (crux construct select) or pass --relevance judgments"
          : `# ${r.run}: ${key} cannot be computed: none of the ${r.topics} evaluated topics has ` +
            "the judgments it needs (see the topics left out above)",
      );
    }
  }
  return out;
}

/** "3 measures reused, 1 computed (inputs unchanged since 2025-01-31 09:15:02 UTC)". */
function reuseNote(r: MeasureValuesRun): string {
  const since = r.since.toISOString().slice(0, 19).replace("T", " ") + " UTC";
  const why = r.inputs === "unchanged"
    ? `inputs unchanged since ${since}`
    : r.inputs === "changed"
    ? "inputs changed: earlier values discarded"
    : "no values stored before";
  return `${r.reused.length} measures reused, ${r.computed.length} computed (${why})`;
}

/** The `crux measure` command. */
export const measureCommand: Command = {
  name: "measure",
  summary:
    "A workspace's measures for its stored runs (the evaluator of crux eval), stored in its measure table",
  help: HELP,
  run,
};
