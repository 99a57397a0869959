// `crux subq compare`: preference accuracy with the weight search, or a win-rate matrix.
import { type Io, UsageError } from "../command.ts";
import { int } from "./_llm_flags.ts";
import {
  answerText,
  readDecompositions,
  readPreferences,
  readRagAnswers,
} from "@lib/formats/mod.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import * as subq from "@lib/subq/mod.ts";
import { setup, type Values } from "./_subq_setup.ts";

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
      io.out(`pairs ${r.pairs}, with a preference (not a tie) ${r.labelled}\n`);
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
