// `crux nuggets create|label|assign`: the nugget steps over a workspace (which caches every call).
import { parseArgs } from "node:util";
import { basename, join } from "node:path";
import { type Io, UsageError } from "../command.ts";
import {
  formatNuggetAssignments,
  formatNuggets,
  formatNuggetScores,
  guardOutputs,
  jsonlOf,
  readNuggetCreationInput,
  readNuggetQuestions,
  readNuggets,
  readRagAnswers,
  writeAtomic,
} from "@lib/formats/mod.ts";

/** The nugget files, recognised by their records' fields. */
const NUGGET_SETS = jsonlOf("nuggets (JSONL)", ["qid", "query", "nuggets"]);
const ASSIGNMENTS = jsonlOf("nugget assignments (JSONL)", ["qid", "run_id", "nuggets"]);
const SCORES = jsonlOf("nugget scores (JSONL)", ["qid", "vital_score"]);
import { terminalProgress } from "@lib/llm/mod.ts";
import * as nug from "@lib/nuggets/mod.ts";
import { openWorkspace, readNuggetOrigins, readTopicIds, type Workspace } from "@lib/store/mod.ts";
import { NUGGETS } from "@lib/methods/mod.ts";
import { chooseBackend, clientFlags, flagRoleClient, int } from "./_llm_flags.ts";

const common = {
  ...clientFlags,
  backend: { type: "string" },
  window: { type: "string" },
  reasks: { type: "string" },
  out: { type: "string" },
} as const;

type Values = Record<string, string | boolean | string[] | undefined>;

const OFFLINE_NOTE =
  "offline backend: nuggets are salient clauses of the passages, importance is frequency across passages, assignment is lexical support";

async function session(values: Values, io: Io) {
  const flat = Object.fromEntries(
    Object.entries(values).filter(([, v]) => !Array.isArray(v)),
  ) as Record<string, string | boolean | undefined>;
  const backendName = chooseBackend(flat, {
    model: "openai",
    offline: ["offline"],
    fallback: "offline",
  });
  const dir = typeof values.workspace === "string" ? values.workspace : join("outputs", "default");
  const ws = await openWorkspace(dir);
  const c = await flagRoleClient(ws, "judge", flat, backendName === "openai");
  const reasks = int("reasks", values.reasks as string | undefined, 0);
  // The method's one backends factory, as the pipeline's nugget stages use it.
  const backend = NUGGETS.backends({ section: { reasks }, judge: c });
  if (backend.offline) io.err(`note: ${OFFLINE_NOTE}\n`);
  const onProgress = terminalProgress(io.err, { isTty: io.isTty });
  const onNote = (m: string) => io.err(`note: ${m}\n`);
  return {
    ws,
    dir,
    backend,
    onProgress,
    onNote,
    window: int("window", values.window as string | undefined, 1),
  };
}

/** The origin to work on: a nugget file imported now, `--origin`, or the workspace's only one. */
async function resolveOrigin(ws: Workspace, values: Values, io?: Io): Promise<string> {
  if (typeof values.nuggets === "string") {
    const file = values.nuggets;
    const onDuplicates = (n: number) =>
      n && io?.err(`# ${file}: ${n} identical repeated lines dropped\n`);
    const sets = values.format === "questions"
      ? await readNuggetQuestions(file, { onDuplicates })
      : await readNuggets(file, { onDuplicates });
    return (await nug.importNuggets(ws, sets, { origin: `file:${basename(file)}` })).origin;
  }
  if (typeof values.origin === "string") return values.origin;
  const origins = await readNuggetOrigins(ws);
  if (origins.length === 1) return origins[0];
  throw new UsageError(
    origins.length
      ? `The workspace holds nuggets of ${
        origins.map((o) => `"${o}"`).join(", ")
      }: pick one with --origin`
      : "The workspace holds no nuggets: run `crux nuggets create` or pass --nuggets FILE",
  );
}

export async function create(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...common,
      input: { type: "string" },
      qrels: { type: "string" },
      "min-grade": { type: "string" },
      "max-nuggets": { type: "string" },
    },
    strict: true,
  });
  await guardOutputs({
    inputs: { "--input": values.input },
    outputs: { "--out": { path: values.out, kind: NUGGET_SETS } },
    workspace: values.workspace,
  });
  const s = await session(values, io);
  try {
    const minGrade = int("min-grade", values["min-grade"], 0);
    const sources = values.input
      ? nug.creationSources(
        await readNuggetCreationInput(values.input, {
          minJudgment: minGrade,
          onDuplicates: (n) =>
            n && io.err(`# ${values.input}: ${n} identical repeated lines dropped\n`),
        }),
      )
      : await nug.relevantPassages(s.ws, { qrelsName: values.qrels, minGrade });
    if (!sources.length) {
      throw new UsageError(
        values.input
          ? `${values.input} has no query with a candidate judged >= ${minGrade ?? 1}`
          : `The workspace ${s.dir} has no passage graded >= ${minGrade ?? 1} in the qrels "${
            values.qrels ?? "crux_pr"
          }": run the CRUX selection (crux construct select) or pass --input CREATION.jsonl`,
      );
    }
    if (values.input) {
      const known = await readTopicIds(s.ws);
      const add = sources.filter((x) => !known.has(x.topicId))
        .map((x) => ({ topicId: x.topicId, request: x.query, source: basename(values.input!) }));
      if (add.length) await s.ws.upsert("topics", add);
    }
    const r = await nug.createNuggets(s.ws, sources, {
      backend: s.backend,
      window: s.window,
      maxNuggets: int("max-nuggets", values["max-nuggets"], 1),
      onNote: s.onNote,
      onProgress: s.onProgress,
    });
    if (values.out) {
      await writeAtomic(values.out, formatNuggets((await nug.exportNuggets(s.ws, r)).nuggets));
    }
    io.out(
      `Created ${r.nuggets} nuggets for ${r.topics} topics as ${r.origin} (${r.windows} windows, ${r.failed} failed) in ${s.dir}${
        values.out ? ` -> ${values.out}` : ""
      }\n`,
    );
    return 0;
  } finally {
    s.ws.close();
  }
}

export async function label(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...common,
      origin: { type: "string" },
      nuggets: { type: "string" },
      format: { type: "string" },
      keep: { type: "string" },
      relabel: { type: "boolean" },
    },
    strict: true,
  });
  await guardOutputs({
    inputs: { "--nuggets": values.nuggets },
    outputs: { "--out": { path: values.out, kind: NUGGET_SETS } },
    workspace: values.workspace,
  });
  const s = await session(values, io);
  try {
    const origin = await resolveOrigin(s.ws, values, io);
    const r = await nug.labelNuggets(s.ws, {
      backend: s.backend,
      origin,
      window: s.window,
      keep: int("keep", values.keep, 1),
      relabel: values.relabel,
      onNote: s.onNote,
    });
    if (values.out) {
      await writeAtomic(
        values.out,
        formatNuggets((await nug.exportNuggets(s.ws, { origin })).nuggets),
      );
    }
    io.out(
      `Labelled ${r.labelled} nuggets of ${origin}: ${r.vital} vital, ${r.okay} okay, ${r.failed} failed; ${r.dropped} dropped past the top ${
        values.keep ?? 20
      }${values.out ? ` -> ${values.out}` : ""}\n`,
    );
    return 0;
  } finally {
    s.ws.close();
  }
}

export async function assign(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...common,
      origin: { type: "string" },
      nuggets: { type: "string" },
      format: { type: "string" },
      answers: { type: "string", multiple: true },
      runs: { type: "string" },
      scores: { type: "string" },
    },
    strict: true,
  });
  await guardOutputs({
    inputs: {
      "--nuggets": values.nuggets,
      ...Object.fromEntries((values.answers ?? []).map((a, i) => [`--answers#${i + 1}`, a])),
    },
    outputs: {
      "--out": { path: values.out, kind: ASSIGNMENTS },
      "--scores": { path: values.scores, kind: SCORES },
    },
    workspace: values.workspace,
  });
  const s = await session(values, io);
  try {
    const origin = await resolveOrigin(s.ws, values, io);
    const fileRuns: string[] = [];
    for (const f of values.answers ?? []) {
      const answers = await readRagAnswers(f, {
        onDuplicates: (n) => n && io.err(`${f}: ${n} identical repeated answer lines dropped\n`),
      });
      fileRuns.push(...(await nug.importRagAnswers(s.ws, answers)).runs);
    }
    const runs = values.runs
      ? values.runs.split(",").map((x) => x.trim()).filter(Boolean)
      : fileRuns.length
      ? fileRuns
      : undefined;
    const a = await nug.assignNuggets(s.ws, {
      backend: s.backend,
      origin,
      runs,
      window: s.window,
      onNote: s.onNote,
    });
    const scores = await nug.scoreNuggets(s.ws, { origin, judge: a.judge, runs });
    const out = await nug.exportNuggets(s.ws, { origin, judge: a.judge, runs });
    if (values.out) await writeAtomic(values.out, formatNuggetAssignments(out.assignments));
    if (values.scores) {
      await writeAtomic(
        values.scores,
        formatNuggetScores(scores.flatMap((r) => [
          ...r.perAnswer.map((p) => ({ qid: p.topicId, runId: r.run, ...p })),
          { qid: "all", runId: r.run, ...r.mean },
        ])),
      );
    }
    io.out(
      `Assigned ${a.labels} labels to ${
        a.answers - a.withoutNuggets
      } answers with ${a.judge} (${a.failed} failed), nuggets ${origin}\n`,
    );
    const width = Math.max(6, ...scores.map((r) => r.run.length));
    io.out(`${"run".padEnd(width)}  strict_vital   vital  strict_all     all  topics\n`);
    for (const r of scores) {
      const m = r.mean;
      io.out(
        `${r.run.padEnd(width)}  ${m.strictVital.toFixed(4).padStart(12)}  ${m.vital.toFixed(4)}  ${
          m.strictAll.toFixed(4).padStart(10)
        }  ${m.all.toFixed(4)}  ${String(r.perAnswer.length).padStart(6)}\n`,
      );
    }
    if (s.backend.offline) io.out(`(${OFFLINE_NOTE})\n`);
    return 0;
  } finally {
    s.ws.close();
  }
}
