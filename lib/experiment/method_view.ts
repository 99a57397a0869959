/**
 * A notebook's view of one evaluation method of an experiment: the method's
 * stages exactly as the experiment config declares them (so after `crux run`
 * nothing runs), and its tables and figures built as the analyze stage builds
 * them (so the saved files are the same bytes).
 *
 * @module
 */
import {
  type CruxExperimentConfig,
  experimentHeadlines,
  experimentStages,
  type RunStagesResult,
  type StageSpec,
} from "@lib/pipeline/mod.ts";
import { join } from "node:path";
import { openWorkspace } from "@lib/store/mod.ts";
import { type Analysis, cellTopicSets } from "@lib/analysis/mod.ts";
import { METHOD_REGISTRY, type MethodDeclaration } from "@lib/methods/mod.ts";
import { runCruxExperiment } from "./run_crux_experiment.ts";

/** Options of {@linkcode methodView}. */
export interface MethodViewOptions {
  /** Stage messages (why a stage ran, or that it was up to date). */
  onEvent?: (event: { stage: string; message: string }) => void;
  /** Environment for model settings. Default `Deno.env`. */
  env?: Record<string, string | undefined>;
  /**
   * A named variation of the method's settings (e.g. `{ name: "rounds2", settings: { rounds: 2 } }`).
   * It runs in its own workspace `<workspace>.<name>` (a copy of the experiment's, made once),
   * as experiment `<experiment>.<name>`, so its stages, rows and files never replace the config's.
   */
  overlay?: { name: string; settings: Record<string, unknown> };
  /** The evaluation methods (a test's own registry). Default {@linkcode METHOD_REGISTRY}. */
  methods?: readonly MethodDeclaration[];
}

/** What {@linkcode methodView} returns. */
export interface MethodView {
  /** The method's checked section: the config's, or the method's defaults when the config has none. */
  section: unknown;
  /** True when the section is the config's own (no overlay). */
  fromConfig: boolean;
  /** The workspace the stages ran in and the analyses read: the config's, or the overlay's. */
  workspace: string;
  /** The method's stage instances as the pipeline declares them (ids, parameters). */
  specs: StageSpec[];
  /** Stage instances that ran, were up to date or were not started. */
  stages: RunStagesResult;
  /** The method's tables and figures (the analyze stage's for this section). */
  analyses: Analysis[];
}

/**
 * Runs what is missing of an experiment up to its measures and returns one
 * method's stages and analyses. With the method's section in the config the
 * stages are the config's own (after `crux run` all are up to date). Without
 * it, the method runs with its defaults beside the config's rows: the
 * config's own stages and this method's are declared (the comparison
 * covers the config's methods), so no other method's rows change.
 *
 * @param config The checked experiment config.
 * @param key Method key: `nuggets`, `keypoints`, `subq` or `compare`.
 * @param opts Event callback, environment.
 * @returns Section, stage instances, stage outcome and analyses.
 * @throws {RangeError} When `key` is not a method of the experiment config.
 * @example
 * ```ts
 * import { loadExperimentConfig, methodView } from "@lib/experiment/mod.ts";
 * const config = await loadExperimentConfig("notebooks/configs/sample-offline.json");
 * const view = await methodView({ ...config, workspace: await Deno.makeTempDir() }, "keypoints");
 * view.analyses.map((a) => a.name); // ["keypoint_extraction", ...]
 * ```
 */
export async function methodView(
  config: CruxExperimentConfig,
  key: string,
  opts: MethodViewOptions = {},
): Promise<MethodView> {
  const registry = opts.methods ?? METHOD_REGISTRY;
  const sectioned = registry.filter((m) => m.section && m.analyses);
  const method = sectioned.find((m) => m.key === key);
  if (!method) {
    throw new RangeError(
      `Unknown method "${key}"; methods: ${sectioned.map((m) => m.key).join(", ")}`,
    );
  }
  const own = config.methods?.[key];
  const file = config.file ?? "(config)";
  const overlay = opts.overlay;
  if (overlay && !/^[\w-]+$/.test(overlay.name)) {
    throw new RangeError(
      `Cannot use overlay name "${overlay.name}": use letters, digits, "_" or "-" (it names a workspace)`,
    );
  }
  // A section naming methods (the comparison's) names the config's.
  const parse = (raw: unknown) =>
    method.section!.parse(
      raw,
      file,
      experimentHeadlines(registry, { ...config.methods, [key]: raw }),
    );
  const base = own ?? parse({});
  const section = overlay
    ? parse({ ...(base as Record<string, unknown>), ...overlay.settings })
    : base;
  // An overlay declares CRUX and this method only; a method without a headline of its own
  // (the comparison, which reads the others') keeps the config's methods too.
  const kept = method.headlines.length ? {} : config.methods;
  const effective: CruxExperimentConfig = overlay
    ? {
      ...config,
      name: `${config.name}.${overlay.name}`,
      workspace: `${config.workspace}.${overlay.name}`,
      methods: { ...kept, [key]: section },
    }
    : own !== undefined
    ? config
    : { ...config, methods: { ...config.methods, [key]: section } };
  if (overlay) {
    await copyWorkspaceOnce(config.workspace, effective.workspace);
    opts.onEvent?.({
      stage: key,
      message: `overlay "${overlay.name}" (${
        JSON.stringify(overlay.settings)
      }) runs in ${effective.workspace}; the config's rows stay as they are`,
    });
  } else if (own === undefined) {
    opts.onEvent?.({
      stage: key,
      message: `the config has no "${key}" section: the method runs with its defaults`,
    });
  }
  const stages = await runCruxExperiment(effective, {
    until: "measure",
    onEvent: opts.onEvent,
    env: opts.env,
    methods: registry,
  });
  // The method's instances: those a config with only this method declares beyond CRUX's.
  const ids = async (methods: Record<string, unknown> | undefined) =>
    new Set(
      (await experimentStages({ ...effective, methods }, { env: opts.env, methods: registry }))
        .map((s) => s.id),
    );
  const crux = await ids(undefined);
  const withMethod = await ids({ [key]: section });
  const specs = (await experimentStages(effective, { env: opts.env, methods: registry })).filter((
    s,
  ) => withMethod.has(s.id) && !crux.has(s.id));
  const ws = await openWorkspace(effective.workspace, { readOnly: true });
  try {
    return {
      section,
      fromConfig: own !== undefined && !overlay,
      workspace: effective.workspace,
      specs,
      stages: stages.stages,
      // Each cell key names its stored row's topic set, as `crux run` saves it.
      analyses: (await method.analyses!(ws, {
        section,
        experiment: effective.name,
        headlines: experimentHeadlines(registry, effective.methods),
      })).map(await cellTopicSets(ws)),
    };
  } finally {
    ws.close();
  }
}

/** Copies the experiment's workspace database to the overlay's folder unless it exists. */
async function copyWorkspaceOnce(from: string, to: string): Promise<void> {
  try {
    await Deno.stat(join(to, "workspace.duckdb"));
    return;
  } catch {
    // not there yet
  }
  await Deno.mkdir(to, { recursive: true });
  try {
    await Deno.copyFile(join(from, "workspace.duckdb"), join(to, "workspace.duckdb"));
  } catch (e) {
    throw new Error(
      `Cannot start overlay workspace "${to}": cannot copy "${from}/workspace.duckdb" (${
        (e as Error).message
      }); run the experiment first`,
    );
  }
}
