/**
 * `crux nuggets`: nugget evaluation as in the TREC 2024 RAG track: `create`,
 * `label` and `assign` run the steps over a workspace (which caches every model
 * call); `score` works from an assignments file alone.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import {
  formatNuggetScores,
  guardOutputs,
  jsonlOf,
  type NuggetScore,
  readNuggetAssignments,
  writeAtomic,
} from "@lib/formats/mod.ts";
import { nuggetScores } from "@lib/metrics/mod.ts";
import { assign, create, label } from "./_nugget_actions.ts";

const SCORE_HELP =
  `Usage: crux nuggets score --assignments FILE [--per-query] [--format table|json|csv]
                         [--out SCORES.jsonl]

Scores answers from nugget assignments (AutoNuggetizer layout, JSONL):
  {"qid", "run_id", "nuggets": [{"text", "importance": "vital"|"okay",
    "assignment": "support"|"partial_support"|"not_support"|"failed"}]}
Per answer: strict_vital = vital nuggets supported / vital nuggets; vital = (supported +
0.5 partially supported) / vital nuggets; strict_all and all the same over every nugget.
"failed" counts as not_support; an answer with no (vital) nuggets scores 0. A run's score
is the mean over its answers.

Options:
  --assignments FILE  the assignments (required)
  --per-query         also per-answer scores
  --format FORMAT     table (default), json or csv. json for one run:
                        {"aggregate": {"strict_vital_score", "vital_score", "strict_all_score",
                        "all_score"}, "topics": N, "perQuery": [...]} (perQuery with --per-query);
                      several runs: {"runs": [{"run_id", "aggregate", "topics", ...}]}
  --out FILE          also write the scores JSONL (one line per answer, then {"qid": "all"}
                      per run)
`;

const FIELDS = [
  ["strict_vital_score", "strictVital"],
  ["vital_score", "vital"],
  ["strict_all_score", "strictAll"],
  ["all_score", "all"],
] as const;

type Scores = Record<"strictVital" | "vital" | "strictAll" | "all", number>;

const snake = (s: Scores) => Object.fromEntries(FIELDS.map(([k, f]) => [k, s[f]]));

function mean(rows: readonly Scores[]): Scores {
  const m = (f: keyof Scores) => rows.length ? rows.reduce((a, r) => a + r[f], 0) / rows.length : 0;
  return {
    strictVital: m("strictVital"),
    vital: m("vital"),
    strictAll: m("strictAll"),
    all: m("all"),
  };
}

async function score(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      assignments: { type: "string" },
      "per-query": { type: "boolean" },
      format: { type: "string" },
      out: { type: "string" },
    },
  });
  if (!values.assignments) throw new UsageError("--assignments FILE is required");
  const format = values.format ?? "table";
  if (!["table", "json", "csv"].includes(format)) {
    throw new UsageError(`--format must be table, json or csv, not "${format}"`);
  }
  await guardOutputs({
    inputs: { "--assignments": values.assignments },
    outputs: {
      "--out": { path: values.out, kind: jsonlOf("nugget scores (JSONL)", ["qid", "vital_score"]) },
    },
  });
  const records = await readNuggetAssignments(values.assignments, {
    onDuplicates: (n) =>
      n && io.err(`# ${values.assignments}: ${n} identical repeated lines dropped\n`),
  });
  const byRun = new Map<string, { qid: string; scores: Scores }[]>();
  for (const r of records) {
    const list = byRun.get(r.runId) ?? [];
    list.push({ qid: r.qid, scores: nuggetScores(r.nuggets) });
    byRun.set(r.runId, list);
  }
  const runs = [...byRun].map(([runId, answers]) => ({
    runId,
    answers,
    aggregate: mean(answers.map((a) => a.scores)),
  }));
  if (values.out) {
    const rows: NuggetScore[] = runs.flatMap((r) => [
      ...r.answers.map((a) => ({ qid: a.qid, runId: r.runId, ...a.scores })),
      { qid: "all", runId: r.runId, ...r.aggregate },
    ]);
    await writeAtomic(values.out, formatNuggetScores(rows));
  }
  const perQuery = values["per-query"] ?? false;
  if (format === "json") {
    const one = (r: (typeof runs)[number]) => ({
      aggregate: snake(r.aggregate),
      topics: r.answers.length,
      ...(perQuery
        ? { perQuery: r.answers.map((a) => ({ qid: a.qid, run_id: r.runId, ...snake(a.scores) })) }
        : {}),
    });
    const json = runs.length === 1
      ? one(runs[0])
      : { runs: runs.map((r) => ({ run_id: r.runId, ...one(r) })) };
    io.out(JSON.stringify(json, null, 2) + "\n");
    return 0;
  }
  if (format === "csv") {
    io.out(`run_id,qid,${FIELDS.map(([k]) => k).join(",")}\n`);
    for (const r of runs) {
      const rows = [...(perQuery ? r.answers : []), { qid: "all", scores: r.aggregate }];
      for (const a of rows) {
        io.out(`${r.runId},${a.qid},${FIELDS.map(([, f]) => a.scores[f]).join(",")}\n`);
      }
    }
    return 0;
  }
  const width = Math.max(6, ...runs.map((r) => r.runId.length));
  io.out(`${"run".padEnd(width)}  strict_vital   vital  strict_all     all  topics\n`);
  for (const r of runs) {
    const rows = [
      ...(perQuery ? r.answers.map((a) => ({ label: `  ${a.qid}`, s: a.scores, n: "" })) : []),
      {
        label: r.runId,
        s: r.aggregate,
        n: String(r.answers.length),
      },
    ];
    for (const x of rows) {
      io.out(
        `${x.label.padEnd(width)}  ${x.s.strictVital.toFixed(4).padStart(12)}  ${
          x.s.vital.toFixed(4)
        }  ${x.s.strictAll.toFixed(4).padStart(10)}  ${x.s.all.toFixed(4)}  ${x.n.padStart(6)}\n`,
      );
    }
  }
  return 0;
}

const BACKEND_HELP = `Backend:
  --backend NAME      offline (default: salient clauses, frequency, lexical support; said in
                      every output) or openai (any OpenAI-compatible endpoint, judge role)
  --model M, --base-url URL, --concurrency N, --max-retries N, --timeout-ms N, --rpm N,
  --tpm N, --templates DIR, --prompt [NAME=]FILE, --config FILE   model settings (as crux judge)
  --workspace DIR     workspace holding nuggets, labels and the call cache
                      (default outputs/default); a repeated run sends no request
  --window N          items per call (default 10)
  --reasks N          re-asks at temperature 0.2 after unreadable output (default 2);
                      then the window's items are recorded failed with the raw text
`;

const CREATE_HELP = `Usage: crux nuggets create [--input CREATION.jsonl] [--out NUGGETS.jsonl]
                          [--max-nuggets 30] [--min-grade 1] [--qrels crux_pr] [backend options]

Creates each topic's nuggets (AutoNuggetizer): windows of --window passages, each call
given the query and the running list, at most --max-nuggets nuggets. Passages come from
--input (TREC RAG creation input {"query": {"qid", "text"}, "candidates": [{"docid",
"judgment"?, "doc": {"segment"}}]}; candidates judged below --min-grade are dropped) or
else from the workspace: each topic's passages graded >= --min-grade in the --qrels
passage qrels (CRUX: 3 required, 2 neutral, 1 redundant; the default 1 keeps every graded
passage, as the AutoNuggetizer keeps every passage judged at least related),
highest grade first. The order shown is recorded. Nuggets are stored as
created:<model> (created:offline offline); --out writes them as nugget JSONL.

${BACKEND_HELP}`;

const LABEL_HELP =
  `Usage: crux nuggets label [--origin ORIGIN | --nuggets FILE [--format nuggets|questions]]
                         [--keep 20] [--relabel] [--out NUGGETS.jsonl] [backend options]

Labels nuggets vital or okay in windows of --window and keeps each topic's top --keep
after sorting vital first. --nuggets imports a nugget file first (TREC RAG nuggets, or
--format questions for {"id", "nuggets": [[question, answer(s)], ...]}) as
file:<basename>; nuggets that already carry an importance keep it unless --relabel.
Without --origin or --nuggets the workspace's only nugget origin is used.

${BACKEND_HELP}`;

const ASSIGN_HELP =
  `Usage: crux nuggets assign [--origin ORIGIN | --nuggets FILE] [--answers FILE]...
                          [--runs R1,R2] [--out ASSIGNMENTS.jsonl] [--scores SCORES.jsonl]
                          [backend options]

Assigns every kept nugget of a topic to every answer to it (support, partial_support,
not_support; failed after re-asks) in windows of --window, scores each answer and run
(strict_vital, vital, strict_all, all) into the workspace's measure table and prints the
run means. Answers are the workspace's generations (e.g. the CRUX conditions' reports) and
--answers files (TREC RAG answers {"run_id", "topic_id", "topic", "references", "answer":
[{"text", "citations"}]}, text = sentences joined by spaces; repeat the option). --runs
limits the runs (default: the --answers runs, else every run). --out writes the
assignments JSONL, --scores the scores JSONL with a {"qid": "all"} row per run.

${BACKEND_HELP}`;

const HELP = `Usage: crux nuggets <action> [options]

Nugget evaluation as in the TREC 2024 RAG track (AutoNuggetizer).

Actions:
  create  create nuggets from relevant passages (workspace qrels or a TREC RAG input file)
  label   label nuggets vital or okay and keep the top 20
  assign  assign nuggets to answers and score them
  score   score answers from a nugget assignments file (strict vital, vital, strict all, all)

Run \`crux nuggets <action> --help\` for its options.
`;

/** The `crux nuggets` command. */
export const nuggetsCommand: Command = {
  name: "nuggets",
  summary: "Nugget evaluation (TREC 2024 RAG): create, label, assign and score nuggets",
  help: HELP,
  run: (args, io) =>
    runAction(args, io, {
      what: "nuggets action",
      actions: { create, label, assign, score },
      help: (action) =>
        ({ create: CREATE_HELP, label: LABEL_HELP, assign: ASSIGN_HELP, score: SCORE_HELP })[
          action ?? ""
        ] ?? HELP,
    }),
};
