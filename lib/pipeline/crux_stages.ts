/**
 * The stages of a CRUX experiment as declarations for the pipeline runner:
 * dataset -> construct -> select -> retrieve[run] -> rerank[run] ->
 * generate[condition] -> judge[generation] -> measure[run] -> analyze. Each
 * instance states its parameters, what it reads and how to clear what it wrote,
 * so changing one pipeline's parameter re-runs that pipeline's retrieval,
 * generation, judging and measures (and the analyses), and nothing else.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { openAiEmbedder, type ProgressFn, promptSet, resolveRoleConfig } from "@lib/llm/mod.ts";
import {
  ANSWER_ROWS,
  clearContextMeasures,
  clearGenerations,
  clearReportRatings,
  clearRerankUsage,
  clearRunRows,
  clearSelectionQrels,
  countTopics,
  deleteMeasures,
  importCrux,
  importSample,
  incompleteRatingTopics,
  passageJudge as choosePassageJudge,
  readRatingCounts,
  recordRun,
  type Workspace,
  writeRunRows,
} from "@lib/store/mod.ts";
import {
  buildPassages,
  buildQuestions,
  buildRequests,
  rateTopics,
  rerankRole,
  rerankRun,
  retrieveRun,
  type RoleClient,
  roleClient,
  roleJudge,
  selectRequired,
} from "@lib/construct/mod.ts";
import { generateReports, storeHumanSummaries } from "@lib/generate/mod.ts";
import { judgeReports } from "@lib/judge/mod.ts";
import { measureRuns } from "./measure_runs.ts";
import { clearMeasureValues, clearRunMeans } from "./measure_values.ts";
import { measureContexts, ORACLE_CONTEXT } from "./measure_contexts.ts";
import { cruxSettings } from "./crux_settings.ts";
import type { StageOutcome, StageSpec } from "./run_stages.ts";
import type { CruxExperimentConfig } from "./experiment_config.ts";
import type { ExperimentMethod, MethodStageContext } from "./method_stage.ts";
import { methodBackends } from "./method_backends.ts";
import { recordRerankCell } from "./_rerank_cell.ts";
import { previousParams } from "./previous_params.ts";
import { rememberByFile } from "./_file_memo.ts";

/** Stage kinds of a CRUX experiment, in order. */
export const CRUX_STAGES = [
  "dataset",
  "construct",
  "select",
  "retrieve",
  "rerank",
  "generate",
  "judge",
  "measure",
  "analyze",
] as const;

/** Options of {@linkcode cruxStages}. */
export interface CruxStagesOptions {
  env?: Record<string, string | undefined>;
  onNote?: (stage: string, message: string) => void;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /**
   * The `analyze` stage: tables and figures from the workspace, supplied by the
   * layer above (experiment), with the parameters that decide its output. Without
   * it the experiment has no `analyze` stage.
   */
  analyze?: AnalyzeStep;
  /**
   * The evaluation methods (the method registry, in stage order: the comparison
   * last). Each whose section the config has adds its stages. Default: none.
   */
  methods?: readonly ExperimentMethod[];
}

/** The analyze stage's work, supplied by the experiment layer. */
export interface AnalyzeStep {
  /** Parameters of the analyses (part of the stage's fingerprint). */
  params: unknown;
  /** Writes the tables and figures; resolves to a one-line summary. */
  run: (ws: Workspace) => Promise<string>;
}

/** Digest of a run file's bytes, so an edited file re-runs its stages. */
async function fileDigest(path: string): Promise<string> {
  const bytes = await Deno.readFile(path);
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Declares the stage instances of an experiment config.
 *
 * @param config A checked experiment config (see `loadExperimentConfigWith`).
 * @param opts Environment, callbacks, signal.
 * @returns Stage instances in dependency order, for `runStages` with `CRUX_STAGES`.
 * @example
 * ```ts
 * import {
 *   CRUX_STAGES,
 *   cruxStages,
 *   loadExperimentConfigWith,
 *   runStages,
 * } from "@lib/pipeline/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * // A config without method sections (those need the registry of lib/methods).
 * const config = await loadExperimentConfigWith("notebooks/configs/sample-grid.json", []);
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * const specs = await cruxStages({ ...config, workspace: ws.dir });
 * await runStages(ws, specs, { order: CRUX_STAGES, until: "select" });
 * ```
 */
export async function cruxStages(
  config: CruxExperimentConfig,
  opts: CruxStagesOptions = {},
): Promise<StageSpec[]> {
  const online = config.backend === "openai";
  const note = (stage: string) => (m: string) => opts.onNote?.(stage, m);
  const common = { onProgress: opts.onProgress, signal: opts.signal };
  // The judge and the generator open through the CRUX declaration's backends factory,
  // as every method's do; the embedder and the reranker belong to runs, not to a method.
  const crux = opts.methods?.find((m) => m.key === "crux") as
    | ExperimentMethod<Record<string, never>, { judge?: RoleClient; generator?: RoleClient }>
    | undefined;
  if (online && !crux) {
    throw new TypeError(
      `Cannot declare the stages of experiment "${config.name}": an online experiment opens its judge and generator through the CRUX method; pass the method registry as \`methods\``,
    );
  }
  const client = async (
    ws: Workspace,
    role: "generator" | "judge" | "embedder" | "reranker",
  ): Promise<RoleClient | undefined> => {
    if (!online) return undefined;
    if (role === "embedder" || role === "reranker") {
      return await roleClient(ws, role, { config: config.llm, env: opts.env });
    }
    const open = methodBackends(crux!, {}, {
      backend: "openai",
      llm: config.llm,
      env: opts.env,
    }, [role]);
    return (await open(ws))[role];
  };
  // Model names are part of the stages' parameters: another model re-runs them.
  const modelOf = (role: "generator" | "judge" | "embedder" | "reranker") => {
    try {
      return resolveRoleConfig(role, { config: config.llm, env: opts.env }).model;
    } catch {
      return null;
    }
  };
  // The user's prompt files too (their texts' hashes name the source), checked here
  // before any call: another prompt re-runs the stages.
  const files = config.llm?.prompts ?? {};
  const prompts = online && Object.keys(files).length
    ? promptSet(files, {
      dir: (opts.env ?? Deno.env.toObject()).CRUX_PROMPTS_DIR ?? config.llm?.templatesDir,
    })
    : undefined;
  const models = online
    ? Object.fromEntries([
      ...(["generator", "judge", "embedder", "reranker"] as const).map((r) => [r, modelOf(r)]),
      ...(prompts ? [["prompts", prompts]] : []),
    ])
    : "offline";
  const settings = cruxSettings(config);
  const tau = settings.constructTau;
  // Only a non-default density exponent enters the judge's parameters.
  const settingsW = settings.w === CRUX_DEFAULTS.w ? undefined : settings.w;
  const judgeName = async (ws: Workspace) => roleJudge(ws, await client(ws, "judge")).name;
  /**
   * The judge of the passage ratings: the only one, else (measuring) the judge of
   * the selection, else the experiment's judge.
   */
  const passageJudge = async (ws: Workspace, selecting = false) => {
    const own = await judgeName(ws);
    return await choosePassageJudge(ws, selecting ? "select" : "measure", undefined, {
      prefer: own,
      selection: !selecting,
    }).catch(async (error) => {
      // No passage rated yet because the ratings failed: the experiment's judge, whose
      // topics wait (left out of the selection, no means) until a re-run rates them.
      if (error instanceof RangeError && (await incompleteRatingTopics(ws, own)).length) return own;
      throw error;
    });
  };
  /**
   * Runs a stage's work; when it finds nothing to work on because every topic waits
   * for failed passage ratings (left out of the selection), says so instead of failing.
   */
  const unlessWaiting = async (
    ws: Workspace,
    work: () => Promise<string | StageOutcome>,
  ): Promise<string | StageOutcome> => {
    try {
      return await work();
    } catch (error) {
      const waiting = error instanceof RangeError &&
        (await incompleteRatingTopics(ws, await judgeName(ws))).length > 0;
      if (!waiting) throw error;
      return `nothing to do: every topic waits for failed passage ratings (re-run to retry them)`;
    }
  };
  const specs: StageSpec[] = [];

  specs.push({
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
      const counts = d.source === "crux" ? await importCrux(ws, d) : await importSample(ws, d.dir);
      return `imported ${JSON.stringify(counts)}`;
    },
  });
  specs.push({
    id: "construct",
    stage: "construct",
    version: 1,
    params: {
      questions: config.construct?.questions ?? { duc04: 15, multi_news: 10, default: 10 },
      models,
    },
    deps: ["dataset"],
    async run(ws) {
      const gen = await client(ws, "generator");
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
      const judge = roleJudge(ws, await client(ws, "judge"));
      const judges = [
        ...new Set(
          (await readRatingCounts(ws)).filter((c) => c.itemKind === "passage").map((c) => c.judge),
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
  });
  specs.push({
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
        judge: await passageJudge(ws, true),
        onNote: note("select"),
      });
      return `judge "${s.judge}": ${s.topics} topics, ${s.dropped.length} dropped, ${s.unrated} unrated passages`;
    },
  });

  const runNames: string[] = [];
  for (const r of config.retrieve ?? [{ name: "bm25" }]) {
    const params = r.kind === "file"
      ? { ...r, digest: await rememberByFile(r.path, "sha256", fileDigest, config.workspace) }
      : { ...r };
    // The queries are the selected topics: a retrieval run reads the selection.
    const deps = ["select", ...(r.kind === "fusion" ? r.runs.map((x) => `retrieve:${x}`) : [])];
    specs.push({
      id: `retrieve:${r.name}`,
      stage: "retrieve",
      version: 1,
      params: r.kind === "dense" && r.embedder === "openai" ? { ...params, model: models } : params,
      deps,
      clear: (ws) => clearRunRows(ws, r.name),
      async run(ws) {
        const embedder = r.kind === "dense" && r.embedder === "openai"
          ? openAiEmbedder(
            (await roleClient(ws, "embedder", { config: config.llm, env: opts.env })).client,
          )
          : undefined;
        const rows = await retrieveRun(ws, r, { embedder });
        await writeRunRows(ws, rows);
        await recordRun(ws, {
          run: r.name,
          kind: r.kind ?? "bm25",
          params,
          sources: r.kind === "fusion" ? r.runs : [],
        });
        return `${rows.length} rows`;
      },
    });
    runNames.push(r.name);
  }
  for (const r of config.rerank ?? []) {
    const role = rerankRole(r);
    specs.push({
      id: `rerank:${r.name}`,
      stage: "rerank",
      version: 1,
      params: role ? { ...r, model: models } : { ...r },
      deps: [`retrieve:${r.from}`],
      clear: async (ws) => {
        await clearRunRows(ws, r.name);
        await clearRerankUsage(ws, r.name);
      },
      async run(ws) {
        const c = role ? await client(ws, role) : undefined;
        const started = performance.now();
        const s = await rerankRun(ws, r, {
          client: c?.client,
          templatesDir: c?.templatesDir,
          signal: opts.signal,
        });
        const wallMs = performance.now() - started;
        await recordRerankCell(ws, config, r, s, { wallMs, model: c?.client.model ?? null });
        const u = s.usage;
        return `${s.written} rows` +
          (u.calls ? `, ${u.calls} model calls (${u.cached} from the cache)` : "") +
          (s.counts.unparsed ? `, ${s.counts.unparsed} unparsed answers (counted)` : "");
      },
    });
    runNames.push(r.name);
  }
  const source = (name: string) =>
    specs.find((s) => s.id === `rerank:${name}`) ? `rerank:${name}` : `retrieve:${name}`;

  const conditions = config.generate ?? ["rag", "direct", "oracle"];
  const generations: {
    run: string;
    condition: "rag" | "direct" | "oracle-context";
    context?: string;
  }[] = [
    ...(conditions.includes("rag")
      ? runNames.map((n) => ({ run: `rag-${n}`, condition: "rag" as const, context: n }))
      : []),
    ...(conditions.includes("direct") ? [{ run: "direct", condition: "direct" as const }] : []),
    ...(conditions.includes("oracle")
      ? [{ run: "oracle-context", condition: "oracle-context" as const }]
      : []),
  ];
  for (const g of generations) {
    // Only a non-default rule enters the fingerprint, so workspaces made before it stay current.
    const fill = g.condition === "rag" && config.missingText === "fill"
      ? { missingText: "fill" as const }
      : {};
    specs.push({
      id: `generate:${g.run}`,
      stage: "generate",
      version: 1,
      params: { ...g, ...fill, models },
      deps: ["select", ...(g.context ? [source(g.context)] : [])],
      clear: (ws) => clearGenerations(ws, g.run),
      run: (ws) =>
        unlessWaiting(ws, async () => {
          const gen = await client(ws, "generator");
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
    run: (ws) => unlessWaiting(ws, async () => `${await storeHumanSummaries(ws)} human summaries`),
  });
  const judged = [...generations.map((g) => g.run), "oracle-result"];
  for (const run of judged) {
    const deps = [`generate:${run}`];
    specs.push({
      id: `judge:${run}`,
      stage: "judge",
      // 2: stored names carry the judge's own tau (`Cov(tau=4)`); a workspace judged
      // by version 1 at another tau than 3 named those values plain `Cov`. 3: Den of
      // answers omits w at its declared default (`Den`, was `Den(w=0.5)`).
      version: 3,
      // The analyses' thresholds and density exponent: the judge stores Cov(y) and
      // Den(y) at each, so the tables read them.
      params: { tau, models, taus: settings.taus, ...(settingsW ? { w: settingsW } : {}) },
      deps,
      clear: async (ws) => {
        // The judge's ratings of this run's reports (the reference summary for
        // oracle-result), found by what the items are, not by their ids. A topic
        // waiting for failed or unparsed passage ratings keeps its reference ratings:
        // the construction rated them (-1 records its unparsed answers) and rates
        // them again with its passages.
        const own = await judgeName(ws);
        const waiting = run === "oracle-result" ? await incompleteRatingTopics(ws, own) : [];
        await clearReportRatings(ws, own, run, waiting);
        // A changed judge model replaces the earlier model's ratings, so no reader picks them.
        const earlier = await previousParams<{ models: { judge?: string | null } | string }>(
          ws,
          `judge:${run}`,
        );
        const earlierJudge = typeof earlier.models === "object" ? earlier.models.judge : undefined;
        if (typeof earlierJudge === "string") await clearReportRatings(ws, earlierJudge, run);
        await deleteMeasures(ws, { ...ANSWER_ROWS, run });
      },
      run: (ws) =>
        unlessWaiting(ws, async () => {
          const judge = roleJudge(ws, await client(ws, "judge"));
          const r = await judgeReports(ws, {
            judge,
            run,
            tau,
            taus: settings.taus,
            ...(settingsW ? { w: settingsW } : {}),
            ...common,
            onNote: note("judge"),
          });
          return {
            summary: `${r.written} ratings by ${judge.name}` +
              (r.failed + r.unparsed ? `; ${r.failed} failed, ${r.unparsed} unparsed` : ""),
            items: r.asked,
            failed: r.failed,
            unparsed: r.unparsed,
          };
        }),
    });
  }
  for (const name of runNames) {
    specs.push({
      id: `measure:${name}`,
      stage: "measure",
      // 2: stored rows state their topic set.
      version: 2,
      params: { measures: config.measures ?? null, tau },
      deps: ["select", source(name)],
      // Rows of measures the config no longer asks for must not outlive a re-run.
      clear: (ws) => clearMeasureValues(ws, name),
      run: (ws) =>
        unlessWaiting(ws, async () => {
          const judge = await passageJudge(ws);
          const rows = await measureRuns(ws, [name], {
            measures: config.measures,
            tau,
            judge,
            missingTokens: "skip",
            onNote: note("measure"),
          });
          // Topics left out of the selection for failed ratings: the run's means would
          // be over the other topics, so none is kept until a re-run rates them.
          const unselected = await incompleteRatingTopics(ws, judge);
          if (unselected.length) {
            await clearRunMeans(ws, name, judge);
            note("measure")(
              `Run "${name}": no means stored; ${unselected.length} topics have failed or unparsed passage ratings (re-run to retry them)`,
            );
            return `${rows.length} aggregate values computed, not stored as means`;
          }
          return `${rows.length} aggregate values`;
        }),
    });
  }
  // The contexts the analyses compare, measured by the measure step at every
  // threshold they show: each generation's contexts and the retrieval runs' rankings.
  const contextSets = generations.filter((g) => g.condition !== "direct").map((g) => ({
    generation: g.run,
    ...(g.context ? { run: g.context } : {}),
  }));
  if (contextSets.length) {
    specs.push({
      id: "measure:contexts",
      stage: "measure",
      // 2: stored rows state their topic set.
      version: 2,
      params: {
        taus: settings.taus,
        w: settings.w,
        cutoffs: settings.cutoffs,
        evaluation: settings.evaluation,
      },
      deps: [
        "select",
        ...contextSets.map((c) => `generate:${c.generation}`),
        ...[...new Set([...runNames, ...settings.evaluation.runs])].map(source),
      ],
      clear: async (ws) => {
        const names = [
          ...contextSets.map((c) => c.generation),
          ...runNames,
          ...settings.evaluation.runs,
          ORACLE_CONTEXT,
        ];
        for (const name of new Set(names)) await clearContextMeasures(ws, name);
      },
      run: (ws) =>
        unlessWaiting(ws, async () => {
          const judge = await passageJudge(ws);
          const n = await measureContexts(ws, contextSets, {
            judge,
            means: (await incompleteRatingTopics(ws, judge)).length === 0,
            taus: settings.taus,
            w: settings.w,
            cutoffs: settings.cutoffs,
            evaluation: settings.evaluation,
            onNote: note("measure"),
          });
          return `${n} values of the analyses' contexts`;
        }),
    });
  }
  const ctx: MethodStageContext = {
    backend: online ? "openai" : "offline",
    llm: config.llm,
    env: opts.env,
    onNote: opts.onNote,
    onProgress: opts.onProgress,
    signal: opts.signal,
    answerRuns: judged,
    answerStages: judged.map((run) => `generate:${run}`),
    dataStages: ["dataset", "construct", "select"],
    judgeStages: judged.map((run) => `judge:${run}`),
    outDir: config.workspace,
    configFile: config.file ?? "(config)",
    headlines: (opts.methods ?? []).flatMap((m) => m.headlines),
  };
  const methodStages: string[] = [];
  for (const method of opts.methods ?? []) {
    const section = config.methods?.[method.key];
    if (section === undefined || !method.section) continue;
    const added = await method.section.stages(
      section,
      { ...ctx, methodStages: [...methodStages] },
      methodBackends(method, section, ctx),
    );
    specs.push(...added);
    methodStages.push(...added.filter((s) => s.stage === "measure").map((s) => s.id));
  }
  if (opts.analyze) {
    const analyze = opts.analyze;
    specs.push({
      id: "analyze",
      stage: "analyze",
      version: 1,
      params: analyze.params,
      deps: specs.filter((s) => ["judge", "measure"].includes(s.stage)).map((s) => s.id),
      run: (ws) => analyze.run(ws),
    });
  }
  return specs;
}
