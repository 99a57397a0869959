// `crux keypoints extract|merge|judge|respond`: file in, file out.
import { parseArgs } from "node:util";
import { basename } from "node:path";
import { type Io, UsageError } from "../command.ts";
import {
  formatEntailments,
  formatKeyPoints,
  formatStatementSupport,
  jsonlOf,
  type QuestionDocuments,
  readKeyPoints,
  readQuestionDocuments,
  writeAtomic,
} from "@lib/formats/mod.ts";

/** The key point files, recognised by their records' fields. */
const KEY_POINTS = jsonlOf("key points (JSONL)", ["qid", "keypoints"]);
const ENTAILMENTS = jsonlOf("key point labels (JSONL)", ["qid", "run_id", "labels"]);
const STATEMENTS = jsonlOf("statement support (JSONL)", ["qid", "run_id", "statements"]);
import {
  checkStatements,
  DEFAULT_EXTRACTION_ROUNDS,
  extractQuestionKeyPoints,
  judgeKeyPoints,
  type KeyPointProblem,
  lexicalEntailer,
  llmEntailer,
  mergeQuestionKeyPoints,
  type QuestionWithDocuments,
} from "@lib/keypoints/mod.ts";
import { terminalProgress } from "@lib/llm/mod.ts";
import { clientFlags, int } from "./_llm_flags.ts";
import { fraction, keyPointBackends, withBackend } from "./_keypoints_backend.ts";

const backendFlags = {
  backend: { type: "string" },
  reasks: { type: "string" },
  ...clientFlags,
} as const;

/** One question per qid with the union of its documents over all lines (first text of an id wins). */
export function unionDocuments(lines: readonly QuestionDocuments[]): QuestionWithDocuments[] {
  const out = new Map<
    string,
    { qid: string; question: string; documents: { docId: string; text: string }[] }
  >();
  for (const l of lines) {
    let q = out.get(l.qid);
    if (!q) out.set(l.qid, q = { qid: l.qid, question: l.question, documents: [] });
    for (const d of l.documents) {
      if (!q.documents.some((x) => x.docId === d.docId)) {
        q.documents.push({ docId: d.docId, text: d.text });
      }
    }
  }
  return [...out.values()];
}

function reportProblems(io: Io, problems: readonly KeyPointProblem[]) {
  for (const p of problems) {
    io.err(`# ${p.step} ${p.qid}${p.item ? `/${p.item}` : ""}: ${p.status}: ${p.reason}\n`);
  }
}

export async function extract(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      questions: { type: "string" },
      out: { type: "string" },
      rounds: { type: "string" },
      "per-round": { type: "string" },
      ...backendFlags,
    },
    strict: true,
  });
  if (!values.questions || !values.out) {
    throw new UsageError("--questions FILE and --out FILE are required");
  }
  const rounds = int("rounds", values.rounds, 1) ?? DEFAULT_EXTRACTION_ROUNDS;
  const perRound = int("per-round", values["per-round"], 1);
  const files = {
    inputs: { "--questions": values.questions },
    outputs: { "--out": { path: values.out, kind: KEY_POINTS } },
  };
  return await withBackend(values, "judge", files, async (b) => {
    const questions = unionDocuments(await readQuestionDocuments(values.questions!));
    const { extractor } = keyPointBackends(b, { perRound });
    const onProgress = terminalProgress(io.err, { isTty: io.isTty });
    const r = await extractQuestionKeyPoints(questions, extractor, { rounds, onProgress });
    await writeAtomic(values.out!, formatKeyPoints(r.keypoints));
    const n = r.keypoints.reduce((s, q) => s + q.keypoints.length, 0);
    const docs = questions.reduce((s, q) => s + q.documents.length, 0);
    io.err(
      `# ${n} key points from ${docs} documents of ${questions.length} questions (${extractor.name}, ` +
        `${rounds} round(s)); ${r.flagged} flagged: ${r.unfoundSpans} spans not found in their document\n`,
    );
    reportProblems(io, r.problems);
    return 0;
  });
}

export async function merge(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      keypoints: { type: "string" },
      questions: { type: "string" },
      out: { type: "string" },
      threshold: { type: "string" },
      ...backendFlags,
    },
    strict: true,
  });
  if (!values.keypoints || !values.out) {
    throw new UsageError("--keypoints FILE and --out FILE are required");
  }
  const threshold = fraction("threshold", values.threshold, 0.6);
  const files = {
    inputs: { "--keypoints": values.keypoints, "--questions": values.questions },
    outputs: { "--out": { path: values.out, kind: KEY_POINTS } },
  };
  return await withBackend(values, "judge", files, async (b) => {
    const originals = await readKeyPoints(values.keypoints!, {
      onDuplicates: (n) =>
        n && io.err(`# ${values.keypoints}: ${n} identical repeated lines dropped\n`),
    });
    const questions = values.questions
      ? new Map(
        unionDocuments(await readQuestionDocuments(values.questions)).map((
          q,
        ) => [q.qid, q.question]),
      )
      : undefined;
    if (b.client && !questions) {
      throw new UsageError(
        "--questions FILE is required with a model backend (the merge prompt shows the question)",
      );
    }
    const { merger } = keyPointBackends(b, { mergeThreshold: threshold });
    const r = await mergeQuestionKeyPoints(originals, merger, { questions });
    await writeAtomic(values.out!, formatKeyPoints(r.keypoints));
    const before = originals.reduce((s, q) => s + q.keypoints.length, 0);
    const after = r.keypoints.reduce((s, q) => s + q.keypoints.length, 0);
    io.err(`# ${before} key points merged into ${after} (${merger.name})\n`);
    reportProblems(io, r.problems);
    return 0;
  });
}

export async function keypointsJudge(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      keypoints: { type: "string" },
      responses: { type: "string" },
      out: { type: "string" },
      statements: { type: "string" },
      "three-way": { type: "boolean" },
      contradiction: { type: "boolean" },
      threshold: { type: "string" },
      ...backendFlags,
    },
    strict: true,
  });
  if (!values.keypoints || !values.responses || !values.out) {
    throw new UsageError("--keypoints FILE, --responses FILE and --out FILE are required");
  }
  const threshold = fraction("threshold", values.threshold, 0.6);
  const files = {
    inputs: { "--keypoints": values.keypoints, "--responses": values.responses },
    outputs: {
      "--out": { path: values.out, kind: ENTAILMENTS },
      "--statements": { path: values.statements, kind: STATEMENTS },
    },
  };
  return await withBackend(values, "judge", files, async (b) => {
    const keypoints = await readKeyPoints(values.keypoints!, {
      onDuplicates: (n) =>
        n && io.err(`# ${values.keypoints}: ${n} identical repeated lines dropped\n`),
    });
    const lines = (await readQuestionDocuments(values.responses!)).filter((l) =>
      l.response !== undefined
    );
    const unnamed = lines.find((l) => l.runId === undefined);
    if (unnamed) {
      throw new UsageError(
        `${values.responses}:${unnamed.line}: run_id: a line with a response needs a run_id`,
      );
    }
    const responses = lines.map((l) => ({ qid: l.qid, runId: l.runId!, text: l.response! }));
    const contradiction = values.contradiction === true;
    const o = { templatesDir: b.templatesDir, reasks: b.reasks, contradiction };
    const entailer = b.client
      ? llmEntailer(b.client, o)
      : lexicalEntailer({ threshold, contradiction });
    const onProgress = terminalProgress(io.err, { isTty: io.isTty });
    const r = await judgeKeyPoints(keypoints, responses, entailer, { onProgress });
    const three = {
      yes: "supported",
      no: "omitted",
      neutral: "omitted",
      contradicts: "contradicted",
    } as const;
    const groups = new Map<
      string,
      {
        qid: string;
        runId: string;
        labels: {
          keypointId: string;
          label:
            | "yes"
            | "no"
            | "neutral"
            | "contradicts"
            | "supported"
            | "omitted"
            | "contradicted";
          reason: string;
        }[];
      }
    >();
    for (const l of lines) {
      groups.set(`${l.qid}\u0000${l.runId}`, { qid: l.qid, runId: l.runId!, labels: [] });
    }
    for (const v of r.verdicts) {
      if (v.label === null) continue;
      groups.get(`${v.qid}\u0000${v.runId}`)!.labels.push({
        keypointId: v.keypointId,
        label: values["three-way"] ? three[v.label] : v.label,
        reason: v.snippet ? `${v.reason} [${v.snippet}]` : v.reason,
      });
    }
    await writeAtomic(
      values.out!,
      formatEntailments([...groups.values()].filter((g) => !r.unknownQuestions.includes(g.qid))),
    );
    io.err(
      `# ${r.verdicts.length} key point judgments of ${responses.length} responses (${entailer.name}); ` +
        `${r.problems.length} without a usable answer (left unlabelled: not covered)\n`,
    );
    if (r.unknownQuestions.length) {
      io.err(
        `# no key points in ${basename(values.keypoints!)} for ${
          r.unknownQuestions.join(", ")
        }: not judged\n`,
      );
    }
    reportProblems(io, r.problems);
    if (values.statements) {
      const supporter = b.client ? llmEntailer(b.client, { ...o, task: "support" }) : entailer;
      const checked = await checkStatements(
        lines.map((l) => ({
          qid: l.qid,
          runId: l.runId!,
          text: l.response!,
          documents: l.documents.map((d) => d.text),
        })),
        supporter,
        { onProgress },
      );
      const byLine = [...groups.values()].map((g) => ({
        qid: g.qid,
        runId: g.runId,
        statements: checked.verdicts.filter((v) => v.qid === g.qid && v.runId === g.runId)
          .map((v) => ({ text: v.text, label: v.label, supported: v.supported })),
      }));
      await writeAtomic(values.statements, formatStatementSupport(byLine));
      io.err(
        `# ${checked.verdicts.length} statements checked against their documents (${supporter.name})\n`,
      );
      reportProblems(io, checked.problems);
    }
    return 0;
  });
}
