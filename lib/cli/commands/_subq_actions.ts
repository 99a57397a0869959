// The model-backed actions of `crux subq` that make files: decompose, classify, judge.
import { type Io, UsageError } from "../command.ts";
import { int } from "./_llm_flags.ts";
import {
  answerText,
  type Decomposition,
  formatJsonl,
  InputError,
  readCorpus,
  readCoverageJudgments,
  readDecompositions,
  readJsonl,
  readRagAnswers,
} from "@lib/formats/mod.ts";
import * as subq from "@lib/subq/mod.ts";
import { fail, setup, write } from "./_subq_setup.ts";

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
export async function subqClassify(args: string[], io: Io): Promise<number> {
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
export async function subqJudge(args: string[], io: Io): Promise<number> {
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
        const given = values.coverage
          ? await importedCoverage(`${values.coverage}/${a.runId}/${a.topicId}.json`, text, d)
          : undefined;
        const pairs = [text, ...chunks].flatMap((t, k) =>
          given && k === 0
            ? []
            : d.subQuestions.map((s, j) => ({ id: `${k}:${j}`, subQuestion: s.text, text: t }))
        );
        const r = new Map(
          (await subq.judgeCoverage(pairs, {
            ...step,
            threshold: values.threshold ? Number(values.threshold) : undefined,
          })).map((x) => [x.id, x]),
        );
        given?.forEach((x, j) => r.set(`0:${j}`, x));
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

/**
 * Coverage judgments of one answer from a file of FORMATS.md (`[{"question", "judgment",
 * "text_span"}]`, one entry per sub-question), spans located in the answer; undefined when
 * the file does not exist.
 */
async function importedCoverage(
  path: string,
  text: string,
  d: Decomposition,
): Promise<subq.CoverageResult[] | undefined> {
  let judgments;
  try {
    judgments = await readCoverageJudgments(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  const byQuestion = new Map(judgments.map((j) => [j.question.trim(), j]));
  return d.subQuestions.map((s, i) => {
    const j = byQuestion.get(s.text.trim());
    if (!j) {
      throw new InputError([{
        file: path,
        line: 0,
        field: "question",
        message: `no judgment of sub-question "${s.text}"; judge every sub-question of the answer`,
      }]);
    }
    const answered = j.judgment === "answered";
    const loc = j.textSpan ? subq.locateSpan(text, j.textSpan) : undefined;
    return {
      id: `0:${i}`,
      answered,
      span: j.textSpan ?? "",
      spanFound: loc ? loc.found : null,
      position: answered && loc?.found ? loc.position : null,
      status: "ok",
      backend: `file ${path}`,
    };
  });
}
