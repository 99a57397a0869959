/**
 * Report generation under the CRUX oracle budget: for each topic, top-k = |P*|
 * context passages from a retrieval run and a length limit equal to the
 * Llama-3.1 token count of P* (the prompt is told the length), plus the two
 * reference conditions (direct prompting without context and the oracle
 * context P*); the human summary is stored as the oracle result. Model calls
 * use temperature 0.7 and top-p 0.95 and are cached; offline, an extractive
 * generator fills the budget with context sentences in rank order.
 *
 * @example
 * ```ts
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { generateReports } from "@lib/generate/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // P*, which sets each topic's budget
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * await generateReports(ws, { run: "bm25-rag", condition: "rag", context: "bm25" });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export {
  ORACLE_BUDGET_CAP,
  type OracleBudget,
  type OracleBudgetOptions,
  oracleBudgets,
} from "./oracle_budget.ts";
export {
  type GenerationCondition,
  type GenerationPlan,
  type MissingTextRule,
  planGenerations,
  type PlanInput,
  type PlannedGeneration,
} from "./plan_generations.ts";
export {
  generateReports,
  type GenerateReportsOptions,
  type GenerateSummary,
  GENERATION_PARAMS,
  storeHumanSummaries,
} from "./generate_reports.ts";
export {
  countGenerationFlags,
  describeGenerationFlags,
  type GenerationFlag,
  generationFlag,
} from "./generation_flag.ts";
