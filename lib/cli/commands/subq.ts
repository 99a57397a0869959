/**
 * `crux subq`: sub-question coverage by type (core / background / follow-up).
 * `score` works from a typed coverage judgments file alone.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import { readTypedCoverage } from "@lib/formats/mod.ts";
import { storeSubqMeasures, subqMeasureRows, systemScores } from "@lib/subq/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { basename } from "node:path";
import { decompose, subqClassify, subqJudge } from "./_subq_actions.ts";
import { compare } from "./_subq_compare.ts";

const SCORE_HELP = `Usage: crux subq score --judgments FILE [--weights CORE,BACKGROUND,FOLLOWUP]
                      [--format table|json|csv] [--workspace DIR [--judge NAME] [--source NAME]]

Sub-question coverage by type from judgments, one JSONL line per (question,
sub-question, system):
  {"question_id", "sub_question", "type": "core"|"background"|"follow-up", "system",
   "answered": bool, "retrieved": bool?, "chunk_share": number?, "position": number?}
Per system and type: answered share (#1), retrieved share (#2, when "retrieved" is
given), and over core sub-questions #3 P(answered, retrieved) / P(retrieved), #4 P(not
answered, not retrieved) / P(not answered), #5 mean chunk share when answered minus when
not (needs "chunk_share"), #6 mean start position of follow-up minus the mean of core and
background (needs "position"). "all" is the share over every sub-question of the system.
The rating is the weighted type coverage of each answer (core 1, background 0.5,
follow-up -1 by default), averaged over the system's questions. Metrics whose inputs are
missing are null, never 0.

Options:
  --judgments FILE    the judgments (required)
  --weights W         weights of core, background, follow-up (default 1,0.5,-1)
  --format FORMAT     table (default), json or csv. json: {"systems": {"<system>":
                      {"answered": {"core", "background", "follow-up", "all"}, "retrieved":
                      {...}, "counts": {...}, "metrics": {"m3", "m4", "m5", "m6"}, "rating"}}}
  --workspace DIR     also store the scores in DIR's measure table (method subq, per topic
                      and "all", the rows of the pipeline's measure step), so \`crux compare\`
                      shows them beside the other methods; the rows of the same judge and
                      source are replaced
  --judge NAME        judge the stored rows are under (default file:<judgments file name>)
  --source NAME       source of the stored rows (default file:<judgments file name>)
`;

async function score(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      judgments: { type: "string" },
      weights: { type: "string" },
      format: { type: "string" },
      workspace: { type: "string" },
      judge: { type: "string" },
      source: { type: "string" },
    },
    strict: true,
  });
  if (!values.judgments) throw new UsageError("--judgments FILE is required");
  if ((values.judge !== undefined || values.source !== undefined) && !values.workspace) {
    throw new UsageError("--judge and --source name stored rows: they need --workspace DIR");
  }
  const format = values.format ?? "table";
  if (!["table", "json", "csv"].includes(format)) {
    throw new UsageError(`--format must be table, json or csv, not "${format}"`);
  }
  // Without --weights the scorer's own default (the measure step's too) applies.
  const w = values.weights === undefined ? undefined : values.weights.split(",").map(Number);
  if (w && (w.length !== 3 || w.some((x) => !Number.isFinite(x)))) {
    throw new UsageError(
      `--weights needs three numbers (core,background,follow-up), got "${values.weights}"`,
    );
  }
  const weights = w && { core: w[0], background: w[1], "follow-up": w[2] };
  const lines = await readTypedCoverage(values.judgments, {
    onDuplicates: (n) =>
      n && io.err(`# ${values.judgments}: ${n} identical repeated lines dropped\n`),
  });
  if (values.workspace) {
    const name = `file:${basename(values.judgments)}`;
    const store = { judge: values.judge ?? name, source: values.source ?? name };
    const rows = subqMeasureRows(lines, { ...store, weights });
    const ws = await openWorkspace(values.workspace);
    try {
      await storeSubqMeasures(ws, rows, store);
    } finally {
      ws.close();
    }
    io.err(
      `# ${rows.length} rows stored in ${values.workspace} (method subq, judge ${store.judge}, source ${store.source})\n`,
    );
  }
  const systems = [...new Set(lines.map((l) => l.system))].sort();
  const out = Object.fromEntries(
    systems.map((s) => {
      const { questions: _, ...scores } = systemScores(lines.filter((l) => l.system === s), {
        weights,
      });
      return [s, scores];
    }),
  );
  if (format === "json") {
    io.out(JSON.stringify({ systems: out }, null, 2) + "\n");
    return 0;
  }
  const cell = (
    v: number | null | undefined,
  ) => (v === null || v === undefined ? "-" : v.toFixed(4));
  const cols: [string, (s: (typeof out)[string]) => number | null | undefined][] = [
    ["ans_core", (s) => s.answered.core],
    ["ans_background", (s) => s.answered.background],
    ["ans_followup", (s) => s.answered["follow-up"]],
    ["ans_all", (s) => s.answered.all],
    ["ret_core", (s) => s.retrieved?.core],
    ["m3", (s) => s.metrics.m3],
    ["m4", (s) => s.metrics.m4],
    ["m5", (s) => s.metrics.m5],
    ["m6", (s) => s.metrics.m6],
    ["rating", (s) => s.rating],
  ];
  if (format === "csv") {
    io.out(`system,${cols.map(([k]) => k).join(",")}\n`);
    for (const s of systems) io.out(`${s},${cols.map(([, f]) => f(out[s]) ?? "").join(",")}\n`);
    return 0;
  }
  const width = Math.max(6, ...systems.map((s) => s.length));
  // Two spaces at least between columns, so the longest header stays apart from its neighbour.
  const cw = Math.max(...cols.map(([k]) => k.length)) + 2;
  io.out(`${"system".padEnd(width)}${cols.map(([k]) => k.padStart(cw)).join("")}\n`);
  for (const s of systems) {
    io.out(`${s.padEnd(width)}${cols.map(([, f]) => cell(f(out[s])).padStart(cw)).join("")}\n`);
  }
  return 0;
}

const MODEL_OPTIONS =
  `Backends: offline by default (labelled in every output): noun-phrase templates,
the type heuristic, lexical coverage with the best-matching sentence as the span, and a
pairwise judge that prefers the higher weighted coverage. With --model M (or --backend
openai) the judge role's endpoint is called through the cached LLM layer; --workspace DIR
holds the cache, so a re-run makes no calls. Also --base-url, --concurrency,
--max-retries, --timeout-ms, --rpm, --tpm, --templates DIR, --prompt [NAME=]FILE,
--config FILE.
`;

const DECOMPOSE_HELP =
  `Usage: crux subq decompose --questions FILE [--n N] [--out FILE] [model options]

Decomposes each complex question (JSONL {"question"}) into about N sub-questions
(default 20). Writes JSON [{"question", "sub_questions": [...], "backend"}].
Unparseable model answers are re-asked twice, then reported (exit code 1).

${MODEL_OPTIONS}`;

const CLASSIFY_HELP =
  `Usage: crux subq classify --decompositions FILE [--examples FILE|none] [--out FILE]

Types every sub-question core, background or follow-up. Input: the output of
decompose or a typed decomposition file. --examples: a labelled typed decomposition
file for few-shot prompting (default built-in examples; none = zero-shot). Writes the
typed decomposition JSON [{"question", "sub_questions_with_types": [{"sub_question",
"type"}]}]. An answer without exactly one valid label per sub-question is re-asked,
then reported and left out (exit code 1).

${MODEL_OPTIONS}`;

const JUDGE_HELP = `Usage: crux subq judge --decompositions TYPED --answers FILE [--answers FILE...]
                      [--corpus FILE] [--coverage DIR] [--threshold T] [--out FILE]

Judges every answer (TREC RAG answer JSONL; its "topic" must equal a question of the
typed decomposition file) against each typed sub-question, and each of its references
(the retrieved chunks, texts from --corpus JSONL {"id", "contents"}). Writes the
judgments file of \`crux subq score\`: {"question_id", "sub_question", "type", "system",
"answered", "retrieved", "chunk_share", "position"} (retrieved and chunk_share with
--corpus; position = where the answering span starts, 0-100 % of the answer's words).
Spans the judge quotes that are not in the answer are counted and get no position.
--coverage DIR: judgments made elsewhere, DIR/<run_id>/<topic_id>.json in the coverage
judgment format [{"question": sub-question, "judgment": "answered"|"unanswered",
"text_span"}], replace the judging of that answer (its chunks are still judged).
--threshold: overlap needed by the offline judge (default 0.5).

${MODEL_OPTIONS}`;

const COMPARE_HELP =
  `Usage: crux subq compare --preferences FILE [--weights C,B,F] [--validation S] [--seed N]
       crux subq compare --decompositions TYPED --answers A --answers B [...]
       [--format table|json] [model options]

With --preferences (JSONL {"question", "answer_a", "answer_b", "preference": -1..1},
0 = tie): decomposes, types and judges both answers, then reports the preference
accuracy (ties removed; equal ratings are a miss) of the core-only rating, the
hybrid rating (weights, default 1,0.5,-1) and the pairwise judge (asked in both orders;
disagreement = tie, counted as a miss), and a weight search on a validation split
(share S, default 0.5; seed default 42) with its accuracy on the other pairs.
With --answers: the win-rate matrix between the systems (run_id) of answer files from
the position-swapped pairwise judge, per shared topic (ties count half).

${MODEL_OPTIONS}`;

const HELP = `Usage: crux subq <action> [options]

Sub-question coverage by type (core / background / follow-up).

Actions:
  decompose  complex questions -> about 20 sub-questions
  classify   sub-questions -> core / background / follow-up
  judge      answers and their cited chunks -> coverage judgments with spans
  score      coverage by sub-question type (#1-#6) and the answer rating, from judgments
  compare    preference accuracy and weight search, or a win-rate matrix between systems

Run \`crux subq <action> --help\` for its options.
`;

const HELPS: Record<string, string> = {
  decompose: DECOMPOSE_HELP,
  classify: CLASSIFY_HELP,
  judge: JUDGE_HELP,
  score: SCORE_HELP,
  compare: COMPARE_HELP,
};

/** The `crux subq` command. */
export const subqCommand: Command = {
  name: "subq",
  summary: "Sub-question coverage by type: decompose, classify, judge, score, compare",
  help: HELP,
  run: (args, io) =>
    runAction(args, io, {
      what: "subq action",
      actions: { decompose, classify: subqClassify, judge: subqJudge, score, compare },
      help: (action) => HELPS[action ?? ""] ?? HELP,
    }),
};
