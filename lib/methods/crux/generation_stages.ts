/**
 * The CRUX chain's generation stages: `generate:<run>` for each condition of
 * the config (RAG over each run, direct prompting, the oracle context) and
 * `generate:oracle-result` (the human reference summaries).
 *
 * @module
 */
import { clearGenerations } from "@lib/store/mod.ts";
import { generateReports, storeHumanSummaries } from "@lib/generate/mod.ts";
import type { StageSpec } from "@lib/pipeline/mod.ts";
import type { CruxChainEnv } from "./chain_env.ts";
import type { RetrievalStages } from "./retrieval_stages.ts";

/** A generation run of the chain. */
export interface ChainGeneration {
  /** Run name (`rag-bm25`, `direct`, `oracle-context`). */
  run: string;
  condition: "rag" | "direct" | "oracle-context";
  /** The retrieval run a RAG generation reads. */
  context?: string;
}

/** The generation stages and the runs they write. */
export interface GenerationStages {
  specs: StageSpec[];
  /** The generated runs (without the human summaries). */
  generations: ChainGeneration[];
  /** Every run whose reports are judged: the generations and `oracle-result`. */
  judged: string[];
}

/**
 * The generation stages of the chain.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @param runs The run stages (their names and sources).
 * @returns The stages, the generations and the judged runs.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { generationStages } from "./generation_stages.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x", generate: ["rag", "direct"] }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * const g = generationStages(env, { specs: [], runNames: ["bm25"], source: (n) => `retrieve:${n}` });
 * assert.deepEqual(g.judged, ["rag-bm25", "direct", "oracle-result"]);
 * ```
 */
export function generationStages(
  env: CruxChainEnv,
  runs: RetrievalStages,
): GenerationStages {
  const { config, common, note } = env;
  const conditions = config.generate ?? ["rag", "direct", "oracle"];
  const generations: ChainGeneration[] = [
    ...(conditions.includes("rag")
      ? runs.runNames.map((n) => ({ run: `rag-${n}`, condition: "rag" as const, context: n }))
      : []),
    ...(conditions.includes("direct") ? [{ run: "direct", condition: "direct" as const }] : []),
    ...(conditions.includes("oracle")
      ? [{ run: "oracle-context", condition: "oracle-context" as const }]
      : []),
  ];
  const specs: StageSpec[] = [];
  for (const g of generations) {
    // Only a non-default rule enters the fingerprint, so workspaces made before it stay current.
    const fill = g.condition === "rag" && config.missingText === "fill"
      ? { missingText: "fill" as const }
      : {};
    specs.push({
      id: `generate:${g.run}`,
      stage: "generate",
      version: 1,
      params: { ...g, ...fill, models: env.models },
      deps: ["select", ...(g.context ? [runs.source(g.context)] : [])],
      clear: (ws) => clearGenerations(ws, g.run),
      run: (ws) =>
        env.unlessWaiting(ws, async () => {
          const gen = await env.client(ws, "generator");
          const s = await generateReports(ws, {
            ...g,
            ...fill,
            client: gen?.client,
            templatesDir: gen?.templatesDir,
            ...common,
            storeHuman: false,
            onNote: note("generate"),
          });
          const gaps = s.incomplete.length ? `, ${s.incomplete.length} contexts incomplete` : "";
          return {
            summary: `${s.written} reports by ${s.backend}${
              s.failed ? `, ${s.failed} failed` : ""
            }${gaps}`,
            items: s.written + s.skipped + s.failed,
            failed: s.failed,
          };
        }),
    });
  }
  specs.push({
    id: "generate:oracle-result",
    stage: "generate",
    version: 1,
    params: {},
    deps: ["select"],
    clear: (ws) => clearGenerations(ws, "oracle-result"),
    run: (ws) =>
      env.unlessWaiting(ws, async () => `${await storeHumanSummaries(ws)} human summaries`),
  });
  return { specs, generations, judged: [...generations.map((g) => g.run), "oracle-result"] };
}
