/**
 * `crux annotate`: `create` samples a human annotation task and prints one link per
 * annotator; `export` writes the labels in the release formats.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import { intOption } from "../_options.ts";
import {
  ANNOTATION_TASKS,
  createAnnotationTask,
  exportAnnotations,
  openForExport,
  type StudyDesign,
} from "@lib/serve/mod.ts";
import { type AnnotationTaskKind, openWorkspace } from "@lib/store/mod.ts";
import { guardOutputs, JSONL_FILE, JSONL_FOLDER, writeAtomic } from "@lib/formats/mod.ts";

const CREATE_HELP = `Usage: crux annotate create --workspace DIR --task TASK --annotators a,b,c
         [--per-condition N] [--overlap K] [--design cyclic|pairs] [--calibration N]
         [--seed S] [--depth D] [--base-url URL]

Samples the items of a human annotation study and stores them in the workspace
(a stored task of the same kind is kept unless --replace is given):

  answerability  a report and one of its sub-questions: answerable 0/1, with the
                 supporting span copied from the report; N reports per generation run,
                 each topic in one run only when there are enough topics (else in as
                 few runs as possible, as the output says)
  passages       a ranked passage (rank <= --depth, default 10) rated 0-5 for every
                 sub-question of its topic, rubric shown; N passages per retrieval run
  nuggets        a report and each kept nugget of its topic: support / partial / not;
                 N reports per generation run
  preference     two reports of a topic, A/B/tie; N topics per pair of generation runs,
                 the side of each run drawn at random
  types          a sub-question with its topic's request: core / background /
                 follow-up; N topics, all their sub-questions together

Each item (all sub-questions of a report together) goes to K annotators (--overlap,
default 2), so agreement can be measured; items get opaque ids and pages never show
run names. A condition with nothing to sample (e.g. a run whose reports are all
empty) is left out and named. Prints one secret link per annotator: the token is
stored only as its SHA-256. Serve the links with crux serve --workspace DIR --annotate.

Study designs (crux agreement reads any of them):
  cyclic         unit j goes to annotators j, j+1, ..., j+K-1 (mod their number); with
                 more than K+1 annotators some pairs share no unit (named in the output)
  pairs          units go in turn to every set of K annotators, so every pair shares
                 units once there are as many units as sets (K=2: one per pair)
  --calibration N  the first N units go to every annotator (a common calibration set,
                 labelled first); the rest follow the design

Options:
  --per-condition N  items sampled per condition (default 5)
  --overlap K        annotators per item, 1 to the number of annotators (default 2)
  --design D         cyclic (default) or pairs
  --calibration N    units every annotator labels (default 0)
  --seed S           sampling seed (default 42)
  --base-url URL     the server's address in the printed links (default http://127.0.0.1:8765)
  --replace          discard a stored task of this kind and all its labels
`;

const EXPORT_HELP = `Usage: crux annotate export --workspace DIR --task TASK --out DIR

Writes one file per annotator, OUT/<annotator>.jsonl (types: .json):

  answerability  CRUX human-study report labels {"id", "question_based_nugget",
                 "answerability", "coverage"}  (crux agreement --labels OUT/*.jsonl)
  passages       CRUX passage labels {"id", "document", "relevances", "rationales"}
                 (crux agreement --labels OUT/*.jsonl)
  nuggets        nugget assignments {"qid", "run_id", "nuggets": [{"text",
                 "importance", "assignment"}]}
  preference     pairwise preferences {"question", "answer_a", "answer_b",
                 "preference": 1 (A) | -1 (B) | 0 (tie), "id", "run_a", "run_b"}
  types          OUT/<annotator>.json, typed decompositions [{"question",
                 "sub_questions_with_types": [{"sub_question", "type"}]}]
                 (crux agreement --labels OUT/*.json)

A report with sub-questions (or nuggets) an annotator has not all answered is left
out of that annotator's file and listed on stderr. Export only reads: it runs while
crux serve --annotate is up (which holds the workspace only while answering), and
while another process writes the workspace it reads a snapshot of what is saved.
`;

function task(value: string | undefined): AnnotationTaskKind {
  if (!value) throw new UsageError(`Missing --task (${ANNOTATION_TASKS.join(", ")})`);
  if (!ANNOTATION_TASKS.includes(value as AnnotationTaskKind)) {
    throw new UsageError(`--task must be one of ${ANNOTATION_TASKS.join(", ")}, not "${value}"`);
  }
  return value as AnnotationTaskKind;
}

function design(value: string | undefined): StudyDesign | undefined {
  if (value === undefined || value === "cyclic" || value === "pairs") return value;
  throw new UsageError(`--design must be cyclic or pairs, not "${value}"`);
}

async function create(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: "string" },
      task: { type: "string" },
      annotators: { type: "string" },
      "per-condition": { type: "string" },
      overlap: { type: "string" },
      design: { type: "string" },
      calibration: { type: "string" },
      seed: { type: "string" },
      depth: { type: "string" },
      "base-url": { type: "string" },
      replace: { type: "boolean" },
    },
    strict: true,
  });
  if (!values.workspace) throw new UsageError("Missing --workspace DIR");
  const kind = task(values.task);
  const annotators = (values.annotators ?? "").split(",").map((a) => a.trim()).filter(Boolean);
  if (annotators.length === 0) throw new UsageError("Missing --annotators a,b,c");
  const ws = await openWorkspace(values.workspace);
  try {
    const r = await createAnnotationTask(ws, {
      task: kind,
      annotators,
      perCondition: intOption("per-condition", values["per-condition"], { min: 1, fallback: 5 }),
      overlap: intOption("overlap", values.overlap, { min: 1 }),
      design: design(values.design),
      calibration: intOption("calibration", values.calibration, { min: 0, fallback: 0 }),
      seed: intOption("seed", values.seed, { min: 0, fallback: 42 }),
      depth: intOption("depth", values.depth, { min: 1, fallback: 10 }),
      replace: values.replace ?? false,
    });
    const base = (values["base-url"] ?? "http://127.0.0.1:8765").replace(/\/+$/, "");
    io.err(
      `Created the ${kind} task: ${r.units} units, ${r.items} items, ${annotators.length} ` +
        `annotators. Serve with: crux serve --workspace ${values.workspace} --annotate\n`,
    );
    for (const l of r.leftOut) io.err(`Left out: ${l}\n`);
    if (r.calibration) io.err(`Calibration: the first ${r.calibration} units go to everyone\n`);
    if (r.share > 1) {
      io.err(
        `Too few ${kind === "passages" ? "passages" : "topics"} for one condition each: ` +
          `each is sampled in up to ${r.share} conditions, so an annotator may see one more than once\n`,
      );
    }
    if (annotators.length > 1) {
      io.err(
        `Units shared per pair: ${[...r.pairUnits].map(([p, k]) => `${p} ${k}`).join(", ")}\n`,
      );
    }
    if (r.unsharedPairs.length) {
      io.err(
        `No shared unit for ${r.unsharedPairs.join(", ")}: their agreement is undefined; ` +
          "use --design pairs or --calibration N\n",
      );
    }
    for (const [a, token] of r.tokens) io.out(`${a}\t${base}/annotate/${token}\n`);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  } finally {
    ws.close();
  }
  return 0;
}

async function exportLabels(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { workspace: { type: "string" }, task: { type: "string" }, out: { type: "string" } },
    strict: true,
  });
  if (!values.workspace) throw new UsageError("Missing --workspace DIR");
  if (!values.out) throw new UsageError("Missing --out DIR");
  const kind = task(values.task);
  // The folder first, before the workspace is opened; its files once the annotators are known.
  await guardOutputs({
    outputs: { "--out": { path: values.out, kind: JSONL_FOLDER } },
    workspace: values.workspace,
  });
  // Reads only: works while another process holds the workspace (a snapshot).
  const source = await openForExport(values.workspace);
  const ws = source.ws;
  if (source.snapshot) {
    io.err(`${values.workspace} is open in another process (a server): exporting a snapshot\n`);
  }
  try {
    const r = await exportAnnotations(ws, kind);
    const ext = kind === "types" ? "json" : "jsonl";
    const paths = new Map([...r.files.keys()].map((a) => [a, join(values.out!, `${a}.${ext}`)]));
    // The same guard as every --out: no export file may replace a workspace file.
    await guardOutputs({
      outputs: Object.fromEntries(
        [...paths].map(([a, path]) => [`--out (${a})`, { path, kind: JSONL_FILE }]),
      ),
      workspace: values.workspace,
    });
    await Deno.mkdir(values.out, { recursive: true });
    for (const [a, text] of r.files) {
      await writeAtomic(paths.get(a)!, text);
      io.out(`${paths.get(a)}\t${r.lines.get(a)} lines\n`);
    }
    for (const l of r.leftOut) io.err(`Left out: ${l}\n`);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  } finally {
    await source.close();
  }
  return 0;
}

const USAGE = `Usage: crux annotate create --workspace DIR --task TASK --annotators a,b,c [...]
       crux annotate export --workspace DIR --task TASK --out DIR
`;

/** The `crux annotate` command. */
export const annotateCommand: Command = {
  name: "annotate",
  summary: "Human annotation studies: create tasks with per-annotator links, export labels",
  help: USAGE,
  run: (args, io) =>
    runAction(args, io, {
      what: "annotate action",
      actions: { create, export: exportLabels },
      help: (a) => a === "create" ? CREATE_HELP : a === "export" ? EXPORT_HELP : USAGE,
    }),
};
