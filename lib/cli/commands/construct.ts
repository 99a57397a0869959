/**
 * `crux construct <step>`: builds a CRUX evaluation dataset in a workspace,
 * step by step (passages, requests, questions, ratings, select, corpus, stats),
 * each step resumable and its model calls cached.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { type Command, type Io, UsageError } from "../command.ts";
import { intOption } from "../_options.ts";
import {
  chooseBackend,
  clientFlags,
  flagRoleClient,
  MODEL_FLAGS,
  TUNING_FLAGS,
} from "./_llm_flags.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import {
  guardOutputs,
  jsonlOf,
  type OutputKind,
  QRELS_FILE,
  readAlignedRatings,
  readJudgments,
  writeQrels,
} from "@lib/formats/mod.ts";
import { terminalProgress } from "@lib/llm/mod.ts";
import { tableText } from "@lib/report/mod.ts";
import { datasetTable } from "@lib/analysis/mod.ts";
import {
  buildPassages,
  buildQuestions,
  buildRequests,
  poolCorpus,
  rateTopics,
  roleJudge,
  selectFromJudgments,
  selectRequired,
  type StepSummary,
  workspaceStats,
} from "@lib/construct/mod.ts";

const HELP = `Usage: crux construct <step> --workspace DIR [options]

Builds a CRUX-style evaluation dataset from the topics, documents and human
summaries in a workspace (load them first with \`crux import\`). Each step
skips work already in the workspace and caches every model call, so it can be
interrupted and re-run at no cost.

Steps (in order):
  passages   documents -> decontextualised passages {topic}:{doc}#{j} with
             Llama-3.1 token counts (model: <p> passages, documents over 1024
             words cut into 512-word pieces, at most 3 passages per piece;
             offline: sentence-aware chunks of 120-200 words)
  requests   report request (~50 words) from each human summary
  questions  n sub-questions from each human summary (<q> tags)
  ratings    answerability 0-5 of every (passage, sub-question) pair and of the
             summary ({topic}:report); -1 = unparseable (recorded)
  select     answerable sub-questions (rating >= tau) and the greedy required
             subset P*: qrels "crux_pr" (3 required / 2 neutral / 1 redundant)
             and diversity qrels "crux_div"; topics with nothing kept are dropped
  corpus     pooled corpus of all passages (+ distractors) as CRUX JSONL
  stats      dataset statistics table (per dataset and overall)
  all        passages, requests, questions, ratings, select, stats

Options:
  --workspace DIR      experiment workspace (required except for select --judgments)
  --backend NAME       openai (any OpenAI-compatible endpoint) or offline (chunker,
                       lexical judge, summary-derived requests and questions).
                       Default: offline, so a dataset can be built and tested with
                       no model or network; --model or --base-url select openai.
                       --backend offline together with model flags is an error.
                       Only passages, requests, questions and ratings call models.
  --topics IDS         only these topics (comma-separated)
  --n N                sub-questions per topic (default per dataset as in CRUX: 15 for
                       DUC, 10 for Multi-News and others)
  --overwrite          requests: replace requests already set
  --tau N              answerability threshold (default 3)
  --redundancy RULE    select: which sub-questions decide that a passage is redundant
                       (grade 1: rated strictly below the best kept rating on each of
                       them). all (default): every sub-question of the topic, the
                       unanswerable ones included, as the original CRUX code does, so
                       released qrels are reproduced; answerable: only the answerable
                       sub-questions (more passages become redundant)
  --judge NAME         select: judge whose ratings are used (default: the only one)
  --out FILE           corpus: output JSONL (default DIR/corpus.jsonl)
  --distractors FILE   corpus: extra documents {"id","contents"} to append
  --format F           stats: table or json (default table)
  --model M, --base-url URL, --concurrency N, --max-retries N, --timeout-ms N,
  --rpm N, --tpm N, --templates DIR, --prompt [NAME=]FILE, --config FILE
                       model settings of the openai backend (defaults from
                       CRUX_GENERATOR_MODEL / CRUX_JUDGE_MODEL, OPENAI_BASE_URL,
                       OPENAI_API_KEY)

Standalone selection from a CRUX judgments file (no workspace):
  crux construct select --judgments FILE [--aligned-to RUN] [--tau 3] --out-qrels FILE
                        --out-div-qrels FILE
  With --aligned-to, FILE is one JSON document {topic: [[ratings], ...]} aligned to
  the ranking of the run file RUN (as crux eval --aligned-to reads it). Each topic
  selects from the passages rated under it, in passage order (j, then id); a passage
  rated under two topics counts for each with that topic's ratings. The diversity qrels put the sub-question number (from 1) in the iteration column
  and 0/1 in the grade column: "topic subtopic passage 0|1".

Examples:
  crux construct passages --workspace outputs/exp --model llama-3.1-70b
  crux construct ratings --workspace outputs/exp --backend offline
  crux construct select --workspace outputs/exp --tau 3
  crux construct stats --workspace outputs/exp --format json
`;

const STEPS = ["passages", "requests", "questions", "ratings", "select", "corpus", "stats", "all"];
/** Steps that call a model with the openai backend. */
const MODEL_STEPS = ["passages", "requests", "questions", "ratings", "all"];

type Values = Record<string, string | boolean | string[] | undefined>;

/** A non-negative integer option (a string flag) with a default. */
function countOption(
  name: string,
  v: string | boolean | string[] | undefined,
  fallback: number,
): number {
  return intOption(name, typeof v === "string" ? v : undefined, { min: 0, fallback })!;
}

function report(io: Io, s: StepSummary): void {
  const extra = [
    s.failed ? `${s.failed} failed (re-run to retry)` : "",
    s.unparsed ? `${s.unparsed} unparsed` : "",
  ]
    .filter(Boolean).join(", ");
  io.out(
    `${s.step}: ${s.written} written for ${s.topics} topics, ${s.skipped} topics skipped${
      extra ? `, ${extra}` : ""
    }\n`,
  );
}

/** A CRUX corpus file, recognised by its records' fields. */
const CORPUS: OutputKind = jsonlOf("a CRUX corpus (JSONL)", ["id", "contents"]);

function redundancyOption(value: unknown): "all" | "answerable" {
  if (value === undefined || value === "all") return "all";
  if (value === "answerable") return "answerable";
  throw new UsageError(`--redundancy must be all or answerable, not "${value}"`);
}

async function standaloneSelect(values: Values, io: Io): Promise<number> {
  const out = values["out-qrels"];
  const div = values["out-div-qrels"];
  if (typeof out !== "string" || typeof div !== "string") {
    throw new UsageError("select --judgments needs --out-qrels FILE and --out-div-qrels FILE");
  }
  const aligned = typeof values["aligned-to"] === "string" ? values["aligned-to"] : undefined;
  await guardOutputs({
    inputs: {
      "--judgments": values.judgments as string,
      ...(aligned ? { "--aligned-to": aligned } : {}),
    },
    outputs: {
      "--out-qrels": { path: out, kind: QRELS_FILE },
      "--out-div-qrels": { path: div, kind: QRELS_FILE },
    },
  });
  const tau = countOption("tau", values.tau, 3);
  const redundancy = redundancyOption(values.redundancy);
  // Ratings aligned to a run are read by the one reader `crux eval` and `crux import` use.
  const judgments = aligned
    ? await readAlignedRatings(values.judgments as string, aligned)
    : await readJudgments(values.judgments as string);
  const sel = selectFromJudgments(judgments, { tau, redundancy });
  await writeQrels(out, sel.qrels);
  await writeQrels(div, sel.divQrels);
  for (const t of sel.dropped) io.err(`Topic "${t}": nothing answerable at tau ${tau}; dropped\n`);
  const kept = sel.topics.length - sel.dropped.length;
  io.out(
    `select: ${kept} topics kept, ${sel.dropped.length} dropped, ${
      sel.qrels.filter((q) => q.grade === 3).length
    } required passages -> ${out}, ${div}\n`,
  );
  return 0;
}

async function runStep(step: string, ws: Workspace, values: Values, io: Io): Promise<void> {
  const topics = typeof values.topics === "string"
    ? values.topics.split(",").map((t) => t.trim()).filter(Boolean)
    : undefined;
  const common = {
    topics,
    onProgress: terminalProgress(io.err, { isTty: io.isTty }),
    onNote: (m: string) => io.err(`${m}\n`),
  };
  const client = (role: "generator" | "judge") =>
    flagRoleClient(ws, role, values, values.backend === "openai");
  const tau = countOption("tau", values.tau, 3);
  switch (step) {
    case "passages":
    case "requests":
    case "questions": {
      const c = await client("generator");
      const opts = { ...common, client: c?.client, templatesDir: c?.templatesDir };
      if (step === "passages") report(io, await buildPassages(ws, opts));
      if (step === "requests") {
        report(io, await buildRequests(ws, { ...opts, overwrite: values.overwrite === true }));
      }
      if (step === "questions") {
        report(
          io,
          await buildQuestions(ws, {
            ...opts,
            n: values.n === undefined ? undefined : countOption("n", values.n, 10),
          }),
        );
      }
      return;
    }
    case "ratings": {
      const judge = roleJudge(ws, await client("judge"));
      report(io, await rateTopics(ws, { ...common, judge }));
      return;
    }
    case "select": {
      const s = await selectRequired(ws, {
        ...common,
        tau,
        redundancy: redundancyOption(values.redundancy),
        judge: values.judge as string | undefined,
      });
      report(io, s);
      io.out(
        `select: judge "${s.judge}", tau ${tau}, ${s.dropped.length} topics dropped${
          s.dropped.length ? ` (${s.dropped.join(", ")})` : ""
        }\n`,
      );
      return;
    }
    case "corpus": {
      const out = typeof values.out === "string" ? values.out : join(ws.dir, "corpus.jsonl");
      await guardOutputs({
        inputs: { "--distractors": values.distractors as string | undefined },
        outputs: { "--out": { path: out, kind: CORPUS } },
        workspace: ws.dir,
      });
      const r = await poolCorpus(ws, out, {
        topics,
        distractors: values.distractors as string | undefined,
        onNote: common.onNote,
      });
      io.out(`corpus: ${r.passages} passages and ${r.distractors} distractors -> ${out}\n`);
      return;
    }
    case "stats": {
      const rows = await workspaceStats(ws);
      io.out(
        values.format === "json"
          ? JSON.stringify(rows) + "\n"
          : tableText(datasetTable(rows)) + "\n",
      );
      return;
    }
  }
}

/** The `crux construct` command. */
export const constructCommand: Command = {
  name: "construct",
  summary: "build a CRUX dataset: passages, requests, sub-questions, ratings, selection",
  help: HELP,
  async run(args: string[], io: Io): Promise<number> {
    const [step, ...rest] = args;
    if (!step || step === "--help" || step === "-h") {
      io.out(HELP);
      return step ? 0 : 2;
    }
    if (!STEPS.includes(step)) {
      throw new UsageError(`Unknown step "${step}": use one of ${STEPS.join(", ")}`);
    }
    const { values } = parseArgs({
      args: rest,
      options: {
        ...clientFlags,
        backend: { type: "string" },
        topics: { type: "string" },
        n: { type: "string" },
        overwrite: { type: "boolean" },
        tau: { type: "string" },
        redundancy: { type: "string" },
        judge: { type: "string" },
        judgments: { type: "string" },
        "aligned-to": { type: "string" },
        "out-qrels": { type: "string" },
        "out-div-qrels": { type: "string" },
        out: { type: "string" },
        distractors: { type: "string" },
        format: { type: "string", default: "table" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    const names = { model: "openai", offline: ["offline"], fallback: "offline" };
    const modelStep = MODEL_STEPS.includes(step);
    // Steps without model calls only check the backend's name and say what they ignore.
    const backend = chooseBackend(modelStep ? values : { backend: values.backend }, names);
    if (values.format !== "table" && values.format !== "json") {
      throw new UsageError(`Unknown format "${values.format}": use table or json`);
    }
    if (!modelStep) {
      const unused = [...MODEL_FLAGS, ...TUNING_FLAGS].filter((k) => values[k] !== undefined)
        .map((k) => `--${k}`);
      if (values.backend === "openai") unused.unshift("--backend openai");
      if (unused.length) {
        io.err(`construct ${step} makes no model calls; ${unused.join(", ")} not used\n`);
      }
    }
    if (step === "select" && values.judgments) return await standaloneSelect(values, io);
    if (!values.workspace) throw new UsageError(`construct ${step} needs --workspace DIR`);
    if (step === "corpus") {
      // Before the workspace is opened; checked again with its resolved folder below.
      await guardOutputs({
        inputs: { "--distractors": values.distractors as string | undefined },
        outputs: {
          "--out": {
            path: typeof values.out === "string"
              ? values.out
              : join(values.workspace, "corpus.jsonl"),
            kind: CORPUS,
          },
        },
        workspace: values.workspace,
      });
    }
    // `stats` only reads: a mistyped folder is an error, not a new empty workspace.
    const ws = await openWorkspace(values.workspace, { readOnly: step === "stats" });
    try {
      const steps = step === "all"
        ? ["passages", "requests", "questions", "ratings", "select", "stats"]
        : [step];
      for (const s of steps) await runStep(s, ws, { ...values, backend }, io);
    } finally {
      ws.close();
    }
    return 0;
  },
};
