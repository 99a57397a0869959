// The model-backed actions of `crux subq` (decompose, classify, judge, compare), from files.
import { parseArgs } from "node:util";
import { type Io, UsageError } from "../command.ts";
import { chooseBackend, clientFlags, flagRoleClient, int } from "./_llm_flags.ts";
import {
  answerText,
  type Decomposition,
  formatJsonl,
  InputError,
  readCorpus,
  readDecompositions,
  readJsonl,
  readPreferences,
  readRagAnswers,
} from "@lib/formats/mod.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import * as subq from "@lib/subq/mod.ts";

const options = {
  ...clientFlags,
  backend: { type: "string" },
  out: { type: "string" },
  questions: { type: "string" },
  decompositions: { type: "string" },
  examples: { type: "string" },
  answers: { type: "string", multiple: true },
  corpus: { type: "string" },
  preferences: { type: "string" },
  n: { type: "string" },
  threshold: { type: "string" },
  weights: { type: "string" },
  validation: { type: "string" },
  seed: { type: "string" },
  format: { type: "string" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options }>>["values"];

/** Parses the flags and opens the backend: a cached client (needs --workspace) or offline. */
async function setup(args: string[]) {
  const { values } = parseArgs({ args, options });
  const backend = chooseBackend(values as Record<string, string | undefined>, {
    model: "openai",
    offline: ["offline"],
    fallback: "offline",
  });
  if (backend === "openai" && !values.workspace) {
    throw new UsageError("--workspace DIR is required with a model: model calls are cached there");
  }
  const ws = values.workspace ? await openWorkspace(values.workspace) : undefined;
  const role = ws
    ? await flagRoleClient(ws, "judge", values as Record<string, string>, backend === "openai")
    : undefined;
  const step = { client: role?.client, templatesDir: role?.templatesDir };
  return { values, step, ws, close: () => ws?.close() };
}

async function write(io: Io, out: string | undefined, text: string): Promise<void> {
  if (out) await Deno.writeTextFile(out, text);
  else io.out(text);
}

function fail(io: Io, what: string, r: { id: string; status: string; raw?: string }) {
  io.err(`${what} "${r.id}" ${r.status}: ${(r.raw ?? "").slice(0, 200)}\n`);
}

/** `crux subq decompose --questions FILE [--n N] [--out FILE]` */
export async function decompose(args: string[], io: Io): Promise<number> {
  const { values, step, close } = await setup(args);
  try {
    if (!values.questions) {
      throw new UsageError('--questions FILE is required (JSONL {"question"})');
    }
    const lines = await readJsonl(values.questions);
    const questions = lines.map((l, i) => {
      if (typeof l.question !== "string" || !l.question.trim()) {
        throw new InputError([{
          file: values.questions!,
          line: i + 1,
          field: "question",
          message: "expected a non-empty string",
        }]);
      }
      return l.question;
    });
    const results = await subq.decomposeQuestions(
      questions.map((q, i) => ({ id: `${i + 1}`, question: q })),
      { ...step, n: int("n", values.n, 1) },
    );
    results.filter((r) => r.status !== "ok").forEach((r) => fail(io, "Question", r));
    const doc = results.map((r, i) => ({
      question: questions[i],
      sub_questions: r.subQuestions,
      backend: r.backend,
    }));
    await write(io, values.out, JSON.stringify(doc, null, 2) + "\n");
    return results.some((r) => r.status !== "ok") ? 1 : 0;
  } finally {
    close();
  }
}

/** Reads `[{"question", "sub_questions": [...]}]` or a typed decomposition file. */
async function readQuestionsWithSubs(
  path: string,
): Promise<{ question: string; subs: string[] }[]> {
  const doc = JSON.parse(await Deno.readTextFile(path));
  if (Array.isArray(doc) && doc.every((d) => Array.isArray(d?.sub_questions))) {
    return doc.map((d) => ({ question: String(d.question), subs: d.sub_questions.map(String) }));
  }
  return (await readDecompositions(path)).map((d) => ({
    question: d.question,
    subs: d.subQuestions.map((s) => s.text),
  }));
}

/** `crux subq classify --decompositions FILE [--examples FILE|none] [--out FILE]` */
export async function classify(args: string[], io: Io): Promise<number> {
  const { values, step, close } = await setup(args);
  try {
    if (!values.decompositions) throw new UsageError("--decompositions FILE is required");
    const items = await readQuestionsWithSubs(values.decompositions);
    const examples: Decomposition[] | undefined = values.examples === "none"
      ? []
      : values.examples
      ? await readDecompositions(values.examples)
      : undefined;
    const results = await subq.classifySubquestions(
      items.map((x, i) => ({ id: `${i + 1}`, question: x.question, subQuestions: x.subs })),
      { ...step, examples },
    );
    results.filter((r) => r.status !== "ok").forEach((r) => fail(io, "Question", r));
    const doc = results.flatMap((r, i) =>
      r.status !== "ok" ? [] : [{
        question: items[i].question,
        sub_questions_with_types: items[i].subs.map((s, j) => ({
          sub_question: s,
          type: r.types[j],
        })),
        backend: r.backend,
      }]
    );
    await write(io, values.out, JSON.stringify(doc, null, 2) + "\n");
    return results.some((r) => r.status !== "ok") ? 1 : 0;
  } finally {
    close();
  }
}

/** `crux subq judge --decompositions TYPED --answers FILE [--corpus FILE] [--out FILE]` */
export async function judge(args: string[], io: Io): Promise<number> {
  const { values, step, close } = await setup(args);
  try {
    if (!values.decompositions || !values.answers?.length) {
      throw new UsageError("--decompositions FILE (typed) and --answers FILE are required");
    }
    const decs = new Map(
      (await readDecompositions(values.decompositions)).map((d) => [d.question.trim(), d]),
    );
    const corpus = values.corpus
      ? new Map((await readCorpus(values.corpus)).map((c) => [c.id, c.contents]))
      : undefined;
    const lines: object[] = [];
    let flagged = 0;
    for (const file of values.answers) {
      for (const a of await readRagAnswers(file)) {
        const d = decs.get(a.topic.trim());
        if (!d) {
          throw new InputError([{
            file,
            line: 0,
            field: "topic",
            message: `answer of "${a.topicId}" asks "${
              a.topic.slice(0, 80)
            }", which is not a question of ${values.decompositions}`,
          }]);
        }
        const text = answerText(a);
        const chunks = corpus
          ? a.references.map((r) => corpus.get(r)).filter((t): t is string => t !== undefined)
          : [];
        const pairs = [text, ...chunks].flatMap((t, k) =>
          d.subQuestions.map((s, j) => ({ id: `${k}:${j}`, subQuestion: s.text, text: t }))
        );
        const r = new Map(
          (await subq.judgeCoverage(pairs, {
            ...step,
            threshold: values.threshold ? Number(values.threshold) : undefined,
          })).map((x) => [x.id, x]),
        );
        d.subQuestions.forEach((s, j) => {
          const own = r.get(`0:${j}`)!;
          if (own.spanFound === false) flagged++;
          if (own.answered === null) return;
          const hits = chunks.filter((_, k) => r.get(`${k + 1}:${j}`)?.answered).length;
          lines.push({
            question_id: a.topicId,
            sub_question: s.text,
            type: s.type,
            system: a.runId,
            answered: own.answered,
            judge: own.backend,
            ...(corpus && chunks.length
              ? { retrieved: hits > 0, chunk_share: hits / chunks.length }
              : {}),
            ...(own.position !== null ? { position: own.position } : {}),
          });
        });
      }
    }
    if (flagged) {
      io.err(`${flagged} answering spans are not in their answer (flagged; no position)\n`);
    }
    await write(io, values.out, formatJsonl(lines));
    return 0;
  } finally {
    close();
  }
}

/** `crux subq compare --preferences FILE | --answers A --answers B ... --decompositions TYPED` */
export async function compare(args: string[], io: Io): Promise<number> {
  const { values, step, ws, close } = await setup(args);
  try {
    if (values.preferences) return await comparePreferences(values, step, ws, io);
    if ((values.answers?.length ?? 0) >= 2 && values.decompositions) {
      return await compareAnswers(values, step, io);
    }
    throw new UsageError(
      "Give --preferences FILE, or --decompositions TYPED with two or more --answers FILE",
    );
  } finally {
    close();
  }
}

async function comparePreferences(
  values: Values,
  step: subq.SubqStepOptions,
  ws: Workspace | undefined,
  io: Io,
): Promise<number> {
  const w = values.weights?.split(",").map(Number);
  if (w && (w.length !== 3 || w.some((x) => !Number.isFinite(x)))) {
    throw new UsageError(
      `--weights needs three numbers (core,background,follow-up), got "${values.weights}"`,
    );
  }
  const weights = w ? { core: w[0], background: w[1], "follow-up": w[2] } : undefined;
  const pairs = await readPreferences(values.preferences!);
  const tmp = ws ? undefined : await Deno.makeTempDir({ prefix: "crux-subq-" });
  const mem = ws ?? await openWorkspace(tmp!);
  try {
    const judged = await subq.evaluatePreferences(mem, pairs, {
      ...step,
      name: values.preferences!,
      n: int("n", values.n, 1),
    });
    const r = subq.preferenceResults(judged, {
      weights,
      validation: values.validation ? Number(values.validation) : undefined,
      seed: int("seed", values.seed, 0),
    });
    const offline = step.client ? {} : {
      backend:
        "offline (noun-phrase decomposition, type heuristic, lexical coverage, weighted-coverage pairwise judge)",
    };
    if (values.format === "json") io.out(JSON.stringify({ ...r, ...offline }, null, 2) + "\n");
    else {
      const f = (
        v: number | null | undefined,
      ) => (v === null || v === undefined ? "-" : v.toFixed(4));
      io.out(`pairs ${r.pairs}, with a human preference ${r.labelled}\n`);
      io.out(
        `accuracy core-only ${f(r.coreOnly)}  hybrid ${f(r.hybrid)}  pairwise judge ${
          f(r.pairwise)
        }\n`,
      );
      if (r.search) {
        const s = r.search;
        io.out(
          `weight search: core ${s.weights.core}, background ${s.weights.background}, follow-up ${
            s.weights["follow-up"]
          }; validation ${f(s.validationAccuracy)} (${s.validationPairs} pairs), rest ${
            f(s.testAccuracy)
          } (${s.testPairs} pairs)\n`,
        );
      }
      if (!step.client) io.out(`note: ${offline.backend}\n`);
    }
    return 0;
  } finally {
    if (tmp) {
      mem.close();
      await Deno.remove(tmp, { recursive: true });
    }
  }
}

/** Win-rate matrix between answer files (one system each) on their shared topics. */
async function compareAnswers(values: Values, step: subq.SubqStepOptions, io: Io): Promise<number> {
  const decs = new Map(
    (await readDecompositions(values.decompositions!)).map((d) => [d.question.trim(), d]),
  );
  const byRun = new Map<string, Map<string, { question: string; text: string }>>();
  for (const file of values.answers!) {
    for (const a of await readRagAnswers(file)) {
      const m = byRun.get(a.runId) ?? new Map();
      m.set(a.topicId, { question: a.topic, text: answerText(a) });
      byRun.set(a.runId, m);
    }
  }
  const runs = [...byRun.keys()].sort();
  const rating = async (question: string, text: string) => {
    const d = decs.get(question.trim());
    if (!d) return undefined;
    const r = await subq.judgeCoverage(
      d.subQuestions.map((s, j) => ({ id: `${j}`, subQuestion: s.text, text })),
      { ...step, client: undefined },
    );
    return subq.systemScores(d.subQuestions.flatMap((s, j) =>
      r[j].answered === null ? [] : [{
        questionId: "q",
        subQuestion: s.text,
        type: s.type,
        system: "s",
        answered: r[j].answered!,
      }]
    )).rating ?? undefined;
  };
  const inputs: subq.PairwiseInput[] = [];
  const meta: { topicId: string; runA: string; runB: string }[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      for (const [topicId, a] of byRun.get(runs[i])!) {
        const b = byRun.get(runs[j])!.get(topicId);
        if (!b) continue;
        meta.push({ topicId, runA: runs[i], runB: runs[j] });
        inputs.push({
          id: `${inputs.length}`,
          question: a.question,
          answerA: a.text,
          answerB: b.text,
          ...(step.client ? {} : {
            ratingA: await rating(a.question, a.text),
            ratingB: await rating(b.question, b.text),
          }),
        });
      }
    }
  }
  const verdicts = await subq.pairwiseJudge(inputs, step);
  const cells = subq.winRates(verdicts.map((v, i) => ({ ...meta[i], verdict: v.verdict })), runs);
  if (values.format === "json") {
    io.out(JSON.stringify({ judge: verdicts[0]?.backend ?? null, cells }, null, 2) + "\n");
    return 0;
  }
  const width = Math.max(6, ...runs.map((r) => r.length));
  io.out(`${"".padEnd(width)}  ${runs.map((r) => r.padStart(width)).join("  ")}\n`);
  for (const r of runs) {
    const row = runs.map((o) => {
      const c = cells.find((x) => x.run === r && x.opponent === o)!;
      return (c.winRate === null ? "-" : c.winRate.toFixed(3)).padStart(width);
    });
    io.out(`${r.padEnd(width)}  ${row.join("  ")}\n`);
  }
  io.out(
    `win rate of the row over the column (ties count half); judge: ${
      verdicts[0]?.backend ?? "none"
    }\n`,
  );
  return 0;
}
