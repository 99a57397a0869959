/**
 * The CRUX chain's construction stages: `dataset` (import the topics),
 * `construct` (passages, requests, sub-questions and the passage ratings) and
 * `select` (the required passages P* and the answerable sub-questions).
 *
 * @module
 */
import {
  clearSelectionQrels,
  countTopics,
  importCrux,
  importSample,
  readRatingCounts,
} from "@lib/store/mod.ts";
import {
  buildPassages,
  buildQuestions,
  buildRequests,
  rateTopics,
  roleJudge,
  selectRequired,
} from "@lib/construct/mod.ts";
import { previousParams, type StageSpec } from "@lib/pipeline/mod.ts";
import type { CruxChainEnv } from "./chain_env.ts";

/**
 * The construction stages of the chain.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @returns `dataset`, `construct` and `select`, in that order.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { constructionStages } from "./construction_stages.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * assert.deepEqual(constructionStages(env).map((s) => s.id), ["dataset", "construct", "select"]);
 * ```
 */
export function constructionStages(env: CruxChainEnv): StageSpec[] {
  const { config, common, note, tau } = env;
  return [
    {
      id: "dataset",
      stage: "dataset",
      version: 1,
      params: { dataset: config.dataset ?? null },
      deps: [],
      async run(ws) {
        if (await countTopics(ws) > 0) return "topics already in the workspace";
        if (!config.dataset) {
          throw new RangeError(
            `Cannot run experiment: workspace "${ws.dir}" has no topics; give a dataset to import`,
          );
        }
        const d = config.dataset;
        const counts = d.source === "crux"
          ? await importCrux(ws, d)
          : await importSample(ws, d.dir);
        return `imported ${JSON.stringify(counts)}`;
      },
    },
    {
      id: "construct",
      stage: "construct",
      version: 1,
      params: {
        questions: config.construct?.questions ?? { duc04: 15, multi_news: 10, default: 10 },
        models: env.models,
      },
      deps: ["dataset"],
      async run(ws) {
        const gen = await env.client(ws, "generator");
        const llm = {
          client: gen?.client,
          templatesDir: gen?.templatesDir,
          ...common,
          onNote: note("construct"),
        };
        const steps = [
          await buildPassages(ws, llm),
          await buildRequests(ws, llm),
          await buildQuestions(ws, { ...llm, n: config.construct?.questions }),
        ];
        const judge = roleJudge(ws, await env.client(ws, "judge"));
        const judges = [
          ...new Set(
            (await readRatingCounts(ws)).filter((c) => c.itemKind === "passage").map((c) =>
              c.judge
            ),
          ),
        ];
        // Imported passage ratings stay the experiment's own; ratings this stage made with
        // an earlier judge model give way to the configured judge's (kept under their judge).
        const earlier = await previousParams<{ models: { judge?: string | null } | string }>(
          ws,
          "construct",
        );
        const earlierJudge = typeof earlier.models === "object" ? earlier.models.judge : undefined;
        const ownEarlier = typeof earlierJudge === "string" && judges.includes(earlierJudge);
        if (judges.length === 0 || judges.includes(judge.name) || ownEarlier) {
          steps.push(await rateTopics(ws, { ...common, judge, onNote: note("construct") }));
        }
        const failed = steps.reduce((n, s) => n + s.failed, 0);
        const unparsed = steps.reduce((n, s) => n + s.unparsed, 0);
        return {
          summary: steps.map((s) => `${s.step} ${s.written}`).join(", ") +
            (failed + unparsed ? `; ${failed} failed, ${unparsed} unparsed` : ""),
          items: steps.reduce((n, s) => n + s.written + s.failed, 0),
          failed,
          unparsed,
        };
      },
    },
    {
      id: "select",
      stage: "select",
      version: 2,
      params: { tau, redundancy: config.construct?.redundancy ?? "all" },
      deps: ["construct"],
      clear: async (ws) => {
        await clearSelectionQrels(ws);
      },
      async run(ws) {
        const s = await selectRequired(ws, {
          tau,
          redundancy: config.construct?.redundancy,
          judge: await env.passageJudge(ws, true),
          onNote: note("select"),
        });
        return `judge "${s.judge}": ${s.topics} topics, ${s.dropped.length} dropped, ${s.unrated} unrated passages`;
      },
    },
  ];
}
