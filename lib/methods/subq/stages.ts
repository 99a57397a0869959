/**
 * Sub-question coverage by type (Xie et al.) as pipeline stages: decomposition,
 * typing, core sub-question RAG variants, coverage judgments, the pairwise
 * comparison, the preference evaluation and the measures.
 *
 * @module
 */
import { basename } from "node:path";
import { previousParams } from "@lib/pipeline/mod.ts";
import { type Decomposition, readDecompositions, readPreferences } from "@lib/formats/mod.ts";
import { extractiveGenerator, llmGenerator } from "@lib/llm/mod.ts";
import {
  clearAllSubqPairwise,
  clearRunsEverywhere,
  clearSubqCoverage,
  clearSubqPreferences,
  clearSubquestionSource,
  clearSubquestionTypes,
  deleteMeasures,
  type Workspace,
} from "@lib/store/mod.ts";
import * as subq from "@lib/subq/mod.ts";
import { parseSubqSection, sha, type SubqSection } from "./section.ts";
import { measureSubq } from "./measure_subq.ts";
import { subqPreferences } from "./preference_measures.ts";
import { subqWinRates } from "./win_rate_measures.ts";

export type { SubqSection };
import type { MethodStageContext, MethodStages, OpenBackends } from "@lib/pipeline/mod.ts";
import type { RoleClient } from "@lib/construct/mod.ts";
import type { LlmClient } from "@lib/llm/mod.ts";

/** The sub-question method's backends: the judge's client and templates, and the generator's client (none offline). */
export interface SubqBackends {
  client?: LlmClient;
  templatesDir?: string;
  generator?: RoleClient;
}
import type { StageSpec } from "@lib/pipeline/mod.ts";

/** The classifier's labelled examples: none (zero-shot), a file, or the built-in ones (undefined). */
async function classifierExamples(s: SubqSection): Promise<Decomposition[] | undefined> {
  if (s.examples === "none") return [];
  return s.examples ? await readDecompositions(s.examples) : undefined;
}

/** The stage instances of a `subq` section. */
async function stages(
  s: SubqSection,
  ctx: MethodStageContext,
  judgeStep: OpenBackends<SubqBackends>,
): Promise<StageSpec[]> {
  const source = s.source ?? "decompose";
  const note = (m: string) => ctx.onNote?.("judge", `subq: ${m}`);
  const io = { onProgress: ctx.onProgress, signal: ctx.signal, onNote: note };
  const backend = ctx.backend;
  const variants = s.variants ?? [...subq.CORE_VARIANTS];
  const variantRuns = variants.map((v) => `subq-core-${v}`);
  const runs = [...ctx.answerRuns, ...variantRuns];
  const baseline = s.baseline ?? ctx.answerRuns[0];
  const examplesHash = s.examples && s.examples !== "none"
    ? await sha(await Deno.readTextFile(s.examples))
    : s.examples ?? "";
  const judgeName = (ws: Workspace) =>
    ctx.backend === "offline"
      ? Promise.resolve(subq.OFFLINE_BACKENDS.coverage)
      : judgeStep(ws).then((j) => subq.coverageJudgeName(j));
  const out: StageSpec[] = [
    {
      id: "judge:subq-decompose",
      stage: "judge",
      version: 1,
      params: { source, n: s.n ?? 20, backend },
      deps: ctx.dataStages,
      clear: async (ws) => {
        await clearSubquestionSource(ws, source);
      },
      run: async (ws) => {
        const r = await subq.decomposeTopics(ws, {
          ...(await judgeStep(ws)),
          ...io,
          source,
          n: s.n,
        });
        return {
          summary:
            `${r.written} sub-questions for ${r.topics} topics (${r.backend}); ${r.failed} failed`,
          items: r.topics,
          failed: r.failed,
        };
      },
    },
    {
      id: "judge:subq-classify",
      stage: "judge",
      version: 1,
      params: { examples: examplesHash, backend },
      deps: ["judge:subq-decompose"],
      clear: async (ws) => {
        await clearSubquestionTypes(ws, source);
      },
      run: async (ws) => {
        const examples = await classifierExamples(s);
        const r = await subq.classifyTopics(ws, {
          ...(await judgeStep(ws)),
          ...io,
          source,
          examples,
        });
        const c = r.counts;
        return {
          summary: `${r.typed} typed (${r.backend}): core ${c.core ?? 0}, background ${
            c.background ?? 0
          }, follow-up ${c["follow-up"] ?? 0}; ${r.failed} failed`,
          items: r.typed + r.failed,
          failed: r.failed,
        };
      },
    },
  ];
  if (variants.length) {
    out.push({
      id: "judge:subq-variants",
      stage: "judge",
      version: 1,
      params: { variants, depth: s.depth ?? 10, perQuestion: s.perQuestion ?? 3, backend },
      deps: [...ctx.dataStages, "judge:subq-classify"],
      clear: async (ws) => {
        await clearRunsEverywhere(ws, variantRuns);
      },
      run: async (ws) => {
        const j = await judgeStep(ws);
        const generator = j.generator
          ? llmGenerator(j.generator.client, { templatesDir: j.generator.templatesDir })
          : extractiveGenerator();
        const failures: string[] = [];
        const written = await subq.generateCoreVariants(ws, {
          generator,
          client: j.generator?.client,
          judge: j.client,
          templatesDir: j.generator?.templatesDir,
          variants,
          source,
          depth: s.depth,
          perQuestion: s.perQuestion,
          signal: ctx.signal,
          onFailure: (f) => failures.push(`${f.run}/${f.topicId}`),
        });
        if (failures.length) {
          ctx.onNote?.(
            "judge",
            `subq: ${failures.length} variant reports failed (${
              failures.join(", ")
            }); re-run to retry them`,
          );
        }
        return {
          summary: `${written.join(", ")} (${generator.name})${
            failures.length ? `; ${failures.length} reports failed` : ""
          }`,
          items: failures.length,
          failed: failures.length,
        };
      },
    });
  }
  const coverageDeps = [
    "judge:subq-classify",
    ...ctx.answerStages,
    ...(variants.length ? ["judge:subq-variants"] : []),
  ];
  out.push(
    {
      id: "judge:subq-coverage",
      stage: "judge",
      version: 1,
      params: { runs, threshold: s.threshold ?? 0.5, chunks: s.chunks ?? true, backend },
      deps: coverageDeps,
      clear: async (ws) => {
        await clearSubqCoverage(ws, await judgeName(ws));
      },
      run: async (ws) => {
        const r = await subq.judgeAnswers(ws, {
          ...(await judgeStep(ws)),
          ...io,
          runs,
          source,
          threshold: s.threshold,
          chunks: s.chunks,
        });
        return {
          summary:
            `${r.judged} judgments of ${r.answers} answers (${r.judge}); ${r.flagged} spans not in the text, ${r.unparsed} unparsed, ${r.failed} failed`,
          items: r.judged + r.failed,
          failed: r.failed,
          unparsed: r.unparsed,
        };
      },
    },
    {
      id: "judge:subq-pairwise",
      stage: "judge",
      version: 1,
      params: {
        runs: [baseline, ...variantRuns].filter(Boolean),
        weights: s.weights ?? null,
        backend,
      },
      deps: ["judge:subq-coverage"],
      clear: async (ws) => {
        await clearAllSubqPairwise(ws);
      },
      run: async (ws) => {
        const cmp = [baseline, ...variantRuns].filter(Boolean);
        if (cmp.length < 2) return "fewer than two runs to compare";
        const j = await judgeStep(ws);
        const r = await subq.compareRuns(ws, {
          client: j.client,
          templatesDir: j.templatesDir,
          ...io,
          runs: cmp,
          judge: await judgeName(ws),
          source,
          weights: s.weights,
        });
        return `${r.verdicts.length} pairwise verdicts over ${cmp.length} runs (${r.judge})`;
      },
    },
  );
  if (s.preferences) {
    const file = s.preferences;
    out.push({
      id: "judge:subq-preferences",
      stage: "judge",
      // 2: the set is named by its file's name, not the path as the config gives it.
      version: 2,
      params: {
        file,
        sha: await sha(await Deno.readTextFile(file)),
        n: s.n ?? 20,
        examples: examplesHash,
        threshold: s.threshold ?? 0.5,
        backend,
      },
      // Its coverage verdicts sit beside the answers' ones, which judging the answers
      // clears for the judge: after it, so they stay (and are made again when it re-runs).
      deps: ["judge:subq-coverage"],
      // The config names one preference file: its stage owns every stored set, so a
      // set of an earlier file (or of the same file under another path) goes too.
      clear: async (ws) => {
        await clearSubqPreferences(ws);
      },
      run: async (ws) => {
        const examples = await classifierExamples(s);
        const pairs = await readPreferences(file);
        const judged = await subq.evaluatePreferences(ws, pairs, {
          ...(await judgeStep(ws)),
          ...io,
          // The set's name, in its rows' source and the tables: the file's name, the
          // same wherever the file lies.
          name: basename(file),
          n: s.n,
          threshold: s.threshold,
          examples,
        });
        const r = subq.preferenceResults(judged, {
          weights: s.weights,
          validation: s.validation,
          seed: s.seed,
        });
        const f = (v: number | null) => (v === null ? "n/a" : v.toFixed(3));
        return `${r.labelled} of ${r.pairs} pairs labelled; accuracy core-only ${
          f(r.coreOnly)
        }, hybrid ${f(r.hybrid)}, pairwise judge ${f(r.pairwise)}`;
      },
    });
  }
  out.push({
    id: "measure:subq",
    stage: "measure",
    version: 3,
    params: {
      runs,
      source,
      weights: s.weights ?? null,
      validation: s.validation ?? null,
      seed: s.seed ?? null,
    },
    deps: [
      "judge:subq-coverage",
      "judge:subq-pairwise",
      ...(s.preferences ? ["judge:subq-preferences"] : []),
    ],
    clear: async (ws) => {
      // Its rows now and those of its last run (another source), so none is stale.
      const before = await previousParams<{ source: string }>(ws, "measure:subq");
      await deleteMeasures(ws, { method: "subq", source: [source, before.source ?? source] });
      await deleteMeasures(ws, { method: "subq", sourcePrefix: subqPreferences.prefix });
      await deleteMeasures(ws, { method: "subq", source: subqWinRates.source });
    },
    run: async (ws) => {
      const judge = await judgeName(ws);
      const r = await measureSubq(ws, {
        runs,
        judge,
        source,
        weights: s.weights,
        validation: s.validation,
        seed: s.seed,
      });
      if (r.missing) {
        note(`${r.missing} (answer, sub-question) pairs without a usable judgment were left out`);
      }
      return `${r.rows} subq measures of ${r.runs} runs (${judge})`;
    },
  });
  return out;
}

/**
 * The `subq` method: config section `subq` ({@linkcode SubqSection}) and its
 * stages `judge:subq-decompose`, `judge:subq-classify`, `judge:subq-variants`
 * (generation runs `subq-core-def|query|retrieval|e2e`), `judge:subq-coverage`,
 * `judge:subq-pairwise`, `judge:subq-preferences` (with a preference file) and
 * `measure:subq` (method `subq` in `measures`: the scores, headline `subq_rating`,
 * the coverage cells' shares and counts of `subqCells`, the preference
 * evaluation of `subqPreferences` and the win rates of `subqWinRates`). The
 * tables and figures come from `subqAnalyses` (`./analyses.ts`).
 *
 * @example
 * ```ts
 * import { SUBQ_STAGES } from "@lib/methods/subq/stages.ts";
 * const section = SUBQ_STAGES.parse({ n: 12 }, "experiment.json");
 * section.n; // 12
 * // The stages are declared through the method registry, which opens the backends:
 * // `methodStages("subq", section, ctx)` of `@lib/methods/mod.ts`.
 * ```
 */
export const SUBQ_STAGES: MethodStages<SubqSection, SubqBackends> = {
  key: "subq",
  parse: parseSubqSection,
  stages,
};
