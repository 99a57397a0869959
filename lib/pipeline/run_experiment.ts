import type { MetricRow } from "@lib/types/mod.ts";
import { importCrux, importSample, openWorkspace, recordRun } from "@lib/store/mod.ts";
import { type LlmSettings, openAiEmbedder, type ProgressFn } from "@lib/llm/mod.ts";
import type { Embedder } from "@lib/retrieval/mod.ts";
import { generateReports, type GenerateSummary } from "@lib/generate/mod.ts";
import { judgeReports, type ReportJudgment } from "@lib/judge/mod.ts";
import { measureRuns } from "./measure_runs.ts";
import { readRatings, readTopics } from "@lib/store/mod.ts";
import {
  buildPassages,
  buildQuestions,
  buildRequests,
  rateTopics,
  type RetrievalConfig,
  retrieveRun,
  roleClient,
  roleJudge,
  selectRequired,
  type StepSummary,
} from "@lib/construct/mod.ts";

export type { RetrievalConfig } from "@lib/construct/mod.ts";

/** The bundled sample layout (`datasets/sample`). */
export interface SampleDataset {
  source: "sample";
  /** Folder of the sample layout. Default `datasets/sample`. */
  dir?: string;
}

/** Files in the CRUX release layout (see `crux import crux`). */
export interface CruxReleaseDataset {
  source: "crux";
  corpus: string;
  topics: string;
  judgments: string;
  subquestions?: string;
  qrels?: string[];
  /** Topic id rewrites `FROM=TO`. */
  rewrite?: string[];
  /** Judge name of the imported ratings. Default `import:<judgments file name>`. */
  judge?: string;
}

/** One experiment, as read from an experiment config file. */
export interface ExperimentConfig {
  /** Experiment name (labels only). */
  name?: string;
  /** Workspace folder, e.g. `outputs/<experiment>`. */
  workspace: string;
  /** Data to import when the workspace has no topics: the bundled sample layout. Default: none. */
  dataset?: SampleDataset | CruxReleaseDataset;
  /** `offline` (chunker, lexical judge, extractive generator; the default) or `openai`. */
  backend?: "offline" | "openai";
  /** Model settings for the `openai` backend (roles generator and judge; embedder for `openai` dense runs). */
  llm?: LlmSettings;
  /** Sub-questions per topic (default 10) and answerability threshold (default 3). */
  construct?: { questions?: number; tau?: number; redundancy?: "all" | "answerable" };
  /**
   * Retrieval runs (BM25, dense, fusion of earlier entries, TREC run file), computed in
   * order. Default: one BM25 run named `bm25`.
   */
  retrieve?: RetrievalConfig[];
  /** Conditions to generate. Default all three: `rag` (one per retrieval run), `direct`, `oracle`. */
  generate?: ("rag" | "direct" | "oracle")[];
  /** Measures of the retrieval runs. Default `Cov@oracle`, `Den@oracle`, `alpha_nDCG@oracle`. */
  measures?: string[];
}

/** A stage message of {@link runExperiment}. */
export interface ExperimentEvent {
  stage: "import" | "construct" | "retrieve" | "generate" | "judge" | "measure";
  message: string;
}

/** What {@link runExperiment} did. */
export interface ExperimentResult {
  construct: StepSummary[];
  /** Retrieval runs computed now (runs already in the workspace are kept). */
  retrieved: string[];
  generated: GenerateSummary[];
  reports: ReportJudgment[];
  /** Aggregate retrieval measures (topic `all`). */
  measures: MetricRow[];
}

/** Options of {@link runExperiment}. */
export interface RunExperimentOptions {
  /** Stage messages. */
  onEvent?: (event: ExperimentEvent) => void;
  /** Progress of model calls. */
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** Environment for model settings. Default `Deno.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Last stage to run: `construct`, `retrieve`, `generate`, `judge` or `measure`
   * (default: every stage). Later stages are not started, so no model call is
   * made for them.
   */
  until?: "construct" | "retrieve" | "generate" | "judge" | "measure";
}

/**
 * Runs one experiment end to end: import -> construct (passages, requests,
 * sub-questions, ratings, selection) -> retrieve (BM25, dense, fused or
 * imported runs; see `retrieveRun`) -> generate (RAG per
 * retrieval run, direct, oracle context; human summary as oracle result) ->
 * judge reports -> measure retrieval runs. Every stage skips work already in
 * the workspace and model calls are cached, so a re-run costs nothing. When the
 * workspace already holds passage ratings (e.g. imported human judgments), the
 * ratings step is skipped and selection uses them.
 *
 * @param config The experiment; see {@link ExperimentConfig}.
 * @param opts Stage messages, call progress, signal and environment.
 * @returns Per-stage summaries and the aggregate measures.
 * @throws {RangeError} When a stage has nothing to work on (e.g. no topics after import).
 * @example
 * ```ts
 * import { runExperiment } from "@lib/pipeline/mod.ts";
 * const workspace = await Deno.makeTempDir(); // e.g. "outputs/demo"
 * const r = await runExperiment({ workspace, dataset: { source: "sample" } });
 * r.reports.map((x) => [x.run, x.coverage]);
 * ```
 */
export async function runExperiment(
  config: ExperimentConfig,
  opts: RunExperimentOptions = {},
): Promise<ExperimentResult> {
  const say = (stage: ExperimentEvent["stage"], message: string) =>
    opts.onEvent?.({ stage, message });
  const common = {
    onProgress: opts.onProgress,
    signal: opts.signal,
    onNote: (m: string) => say("construct", m),
  };
  const ws = await openWorkspace(config.workspace);
  try {
    if (config.dataset && (await readTopics(ws)).length === 0) {
      const d = config.dataset;
      const counts = d.source === "crux" ? await importCrux(ws, d) : await importSample(ws, d.dir);
      say("import", `imported ${JSON.stringify(counts)}`);
    }
    if ((await readTopics(ws)).length === 0) {
      throw new RangeError(
        `Cannot run experiment: workspace "${config.workspace}" has no topics; give a dataset to import`,
      );
    }
    const online = config.backend === "openai";
    const role = async (r: "generator" | "judge") =>
      online ? await roleClient(ws, r, { config: config.llm, env: opts.env }) : undefined;
    const gen = await role("generator");
    const judgeClient = await role("judge");
    const judge = roleJudge(ws, judgeClient);
    const llm = { client: gen?.client, templatesDir: gen?.templatesDir };
    const tau = config.construct?.tau ?? 3;
    const construct: StepSummary[] = [];
    construct.push(await buildPassages(ws, { ...common, ...llm }));
    construct.push(await buildRequests(ws, { ...common, ...llm }));
    construct.push(await buildQuestions(ws, { ...common, ...llm, n: config.construct?.questions }));
    const judges = new Set(
      (await readRatings(ws)).filter((r) => !r.itemId.includes(":report")).map((r) => r.judge),
    );
    if (judges.size === 0 || judges.has(judge.name)) {
      construct.push(await rateTopics(ws, { ...common, judge }));
    }
    const sel = await selectRequired(ws, {
      tau,
      redundancy: config.construct?.redundancy,
      judge: judges.size !== 1 ? judge.name : undefined,
      onNote: common.onNote,
    });
    construct.push(sel);
    for (const s of construct) {
      say("construct", `${s.step}: ${s.written} written, ${s.skipped} topics skipped`);
    }
    const done = (partial: Partial<ExperimentResult>): ExperimentResult => ({
      construct,
      retrieved: [],
      generated: [],
      reports: [],
      measures: [],
      ...partial,
    });
    if (opts.until === "construct") return done({});

    const retrieved: string[] = [];
    const runsCfg: RetrievalConfig[] = config.retrieve ?? [{ name: "bm25" }];
    let embedder: Embedder | undefined;
    for (const r of runsCfg) {
      const have = await ws.query<{ n: number }>(`SELECT count(*) AS n FROM runs WHERE run = $1`, [
        r.name,
      ]);
      if (Number(have[0].n) > 0) continue;
      if (r.kind === "dense" && r.embedder === "openai" && !embedder) {
        const c = await roleClient(ws, "embedder", { config: config.llm, env: opts.env });
        embedder = openAiEmbedder(c.client);
      }
      const rows = await retrieveRun(ws, r, { embedder });
      await ws.upsert("runs", rows);
      await recordRun(ws, {
        run: r.name,
        kind: r.kind ?? "bm25",
        params: r,
        sources: r.kind === "fusion" ? r.runs : [],
      });
      retrieved.push(r.name);
      say("retrieve", `${r.name}: ${rows.length} rows`);
    }
    if (opts.until === "retrieve") return done({ retrieved });

    const generated: GenerateSummary[] = [];
    const conditions = config.generate ?? ["rag", "direct", "oracle"];
    const g = {
      ...llm,
      onProgress: opts.onProgress,
      signal: opts.signal,
      onNote: (m: string) => say("generate", m),
    };
    if (conditions.includes("rag")) {
      for (const r of runsCfg) {
        generated.push(
          await generateReports(ws, {
            ...g,
            run: `rag-${r.name}`,
            condition: "rag",
            context: r.name,
          }),
        );
      }
    }
    if (conditions.includes("direct")) {
      generated.push(await generateReports(ws, { ...g, run: "direct", condition: "direct" }));
    }
    if (conditions.includes("oracle")) {
      generated.push(
        await generateReports(ws, { ...g, run: "oracle-context", condition: "oracle-context" }),
      );
    }
    for (const s of generated) {
      say("generate", `${s.run}: ${s.written} written, ${s.skipped} already there`);
    }
    if (opts.until === "generate") return done({ retrieved, generated });

    const judged = await judgeReports(ws, {
      judge,
      contextJudge: sel.judge,
      tau,
      onProgress: opts.onProgress,
      signal: opts.signal,
      onNote: (m) => say("judge", m),
    });
    say("judge", `${judged.written} new report ratings`);
    if (opts.until === "judge") return done({ retrieved, generated, reports: judged.runs });

    const measures = await measureRuns(ws, runsCfg.map((r) => r.name), {
      measures: config.measures,
      tau,
      judge: sel.judge,
    });
    say("measure", `${measures.length} aggregate values for ${runsCfg.length} runs`);
    return { construct, retrieved, generated, reports: judged.runs, measures };
  } finally {
    ws.close();
  }
}
