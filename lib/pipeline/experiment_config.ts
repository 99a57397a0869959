/**
 * Experiment config files: the construction chain's config plus reranking
 * runs and analysis settings.
 *
 * @module
 */
import { basename, dirname, extname, isAbsolute, join, resolve } from "node:path";
import type { RerankConfig, RetrievalConfig } from "@lib/construct/mod.ts";
import type { LlmSettings } from "@lib/llm/mod.ts";
import type { ExperimentMethod } from "./method_stage.ts";
import { experimentHeadlines } from "./experiment_headlines.ts";
import { checkRuns } from "./_check_runs.ts";
import { listedOnce } from "./listed_once.ts";
import { checkCruxSettings } from "./_check_crux_settings.ts";
import { type GridSection, parseGridSection } from "./_grid_section.ts";
import { parseConfigJson, readConfigText } from "./config_json.ts";

export type { GridCell, GridPrice, GridSection } from "./_grid_section.ts";

/** The bundled sample layout (`datasets/sample`). */
export interface SampleDataset {
  source: "sample";
  /** Folder of the sample layout, relative to the config file. Default: the bundled `datasets/sample`. */
  dir?: string;
}

/** Files in the CRUX release layout (see `crux import crux`). */
export interface CruxReleaseDataset {
  source: "crux";
  corpus: string;
  topics: string;
  judgments: string;
  /**
   * The TREC run `judgments` is aligned to, when it is one JSON document of rating
   * lists per ranked passage (`crux import crux --aligned-to`).
   */
  alignedTo?: string;
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
  /** Workspace folder, relative to the config file. Default `outputs/<name>` under the root. */
  workspace: string;
  /** Data to import when the workspace has no topics: the bundled sample layout. Default: none. */
  dataset?: SampleDataset | CruxReleaseDataset;
  /** `offline` (chunker, lexical judge, extractive generator; the default) or `openai`. */
  backend?: "offline" | "openai";
  /** Model settings for the `openai` backend (roles generator and judge; embedder for `openai` dense runs). */
  llm?: LlmSettings;
  /**
   * A user's prompt file per step (template id -> file, relative to the config file),
   * e.g. `{"answerability": "paper/answerability.txt"}`; read into `llm.prompts`.
   */
  prompts?: Record<string, string>;
  /**
   * Sub-questions per topic (a number, or counts by dataset such as
   * `{"duc04": 15, "multi_news": 10, "default": 10}`; default CRUX's DUC 15,
   * Multi-News 10, others 10) and answerability threshold (default 3).
   */
  construct?: {
    questions?: number | Record<string, number>;
    tau?: number;
    redundancy?: "all" | "answerable";
  };
  /**
   * Retrieval runs (BM25, dense, fusion of earlier entries, TREC run file), computed in
   * order. Default: one BM25 run named `bm25`.
   */
  retrieve?: RetrievalConfig[];
  /** Conditions to generate. Default all three: `rag` (one per retrieval run), `direct`, `oracle`. */
  generate?: ("rag" | "direct" | "oracle")[];
  /**
   * Context passages without text in the workspace (a released run retrieving passages of
   * other collections): `keep` the shorter context (default; the report is written from the
   * readable part of the top k that the context measures evaluate) or `fill` the places from
   * lower ranks of the run. Either way each such context is flagged per run and topic.
   */
  missingText?: "keep" | "fill";
  /** Measures of the retrieval runs. Default `Cov@oracle`, `Den@oracle`, `alpha_nDCG@oracle`. */
  measures?: string[];
}

/** The `analysis.humanStudy` section: annotators' label files and the labelled run. */
export interface HumanStudySettings {
  /** One label file per annotator (annotators `A1`, `A2`, ... in this order). */
  files: string[];
  /** Generation run whose reports the annotators labelled. Default `oracle-result`. */
  run?: string;
}

/** Analysis settings of an experiment. */
export interface AnalysisSettings {
  /** Answerability threshold, an integer 1-5. Default `CRUX_DEFAULTS.tau` (3). */
  tau?: number;
  /** Density exponent, >= 0. Default `CRUX_DEFAULTS.w` (0.5). */
  w?: number;
  /** Thresholds of the threshold table. Default [3, 5]. */
  thresholds?: number[];
  /** Context sizes of the context-size table. Default ["oracle", 10, 20]. */
  cutoffs?: (number | "oracle")[];
  /** Random-context correlations. Defaults: every first-stage run, 16 samples x 10 from the top 50, seed 42. */
  correlation?: { runs?: string[]; samples?: number; size?: number; depth?: number; seed?: number };
  /** Contexts of the context-evaluation table: runs (default: the first retrieval run) and depths (default 10 and |P*|). */
  contexts?: { runs?: string[]; cutoffs?: (number | "oracle")[] };
  /** Human labels file (see `readHumanLabels`), relative to the config file. */
  human?: string;
  /**
   * A human study: one label file per annotator (CRUX human-study formats, at least two,
   * relative to the config file) and the generation run whose reports they labelled
   * (default `oracle-result`); the `measure:human-agreement` stage stores its agreement.
   */
  humanStudy?: HumanStudySettings;
  /** Judges of passage and report ratings. Defaults: see `loadCruxData`. */
  passageJudge?: string;
  reportJudge?: string;
}

/** An experiment config file: dataset, backends, construction, retrieval, reranking, generation, measures, analyses and the evaluation methods' sections. */
export interface CruxExperimentConfig extends ExperimentConfig {
  /** Experiment name; the workspace is `outputs/<name>` unless `workspace` is given. */
  name: string;
  rerank?: RerankConfig[];
  /**
   * First stages x rerankers: every combination is a reranked run
   * `<first>+<reranker>` (appended to `rerank`), the first stages are the
   * references; see `parseGridSection`.
   */
  grid?: GridSection;
  analysis?: AnalysisSettings;
  /**
   * Sections of the other evaluation methods (`nuggets`, `keypoints`, `subq`,
   * `compare`), each checked by its method's parser, by key.
   */
  methods?: Record<string, unknown>;
  /** The config file it was read from (for messages). */
  file?: string;
}

/** Options of {@linkcode parseExperimentConfigWith}. */
export interface ExperimentConfigOptions {
  /** Overrides the name; the workspace becomes `outputs/<experiment>` under `root`. */
  experiment?: string;
  /**
   * Names the experiment (and its workspace `outputs/<name>`) only when the config
   * names no `workspace`: how notebooks read `CRUX_EXPERIMENT`, so a config's own
   * workspace is never replaced.
   */
  defaultExperiment?: string;
  /**
   * Folder of the default workspace (`outputs/<name>`) and of the bundled sample
   * (`datasets/sample`). Default: the current directory. Relative paths written in the
   * config resolve against the config file's folder, not against this.
   */
  root?: string;
}

const KEYS = [
  "$comment",
  "name",
  "workspace",
  "dataset",
  "backend",
  "llm",
  "prompts",
  "construct",
  "retrieve",
  "rerank",
  "grid",
  "generate",
  "missingText",
  "measures",
  "analysis",
];

/**
 * Parses and checks an experiment config (JSON). Every relative path written in
 * the config (`workspace`, `dataset` files and folder, run files, `analysis.human`
 * and the methods' files) resolves against the folder of `file` (itself resolved
 * against the cwd); `root` only places the default workspace `outputs/<name>` and
 * the bundled sample; `experiment` (e.g. from `CRUX_EXPERIMENT`) renames the
 * experiment and points the workspace at `outputs/<experiment>`. Secrets are
 * never part of a config: model names, base URL and key come from the
 * environment (`CRUX_<ROLE>_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`).
 *
 * @param text The JSON text.
 * @param methods The evaluation methods (the method registry): the config may have a
 *   section for each that declares one, checked by its parser.
 * @param opts `file` (for messages), `experiment`, `root` (default cwd).
 * @returns The config with absolute paths and defaults for name and workspace.
 * @throws {SyntaxError} When the text is not JSON (with line and column).
 * @throws {RangeError} On a number too large for a 64-bit float, naming its field.
 * @throws {TypeError} On an unknown key or a field of the wrong type, naming the file and field:
 *   unknown run kinds or fields, repeated run names, fusion of runs not listed earlier,
 *   reranking of a run that is not a `retrieve` entry, model rerankers and endpoint
 *   embedders (`"embedder": "openai"`, methods `endpoint`, `listwise`, `setwise`,
 *   `pointwise`, MMR `"vectors": "embedder"`) without `"backend": "openai"`, and a
 *   malformed `grid` section (fields `grid.first[i]`, `grid.rerankers[i].<field>`,
 *   `grid.prices.<model>.<field>`), and CRUX settings out of range (`construct.tau`,
 *   `analysis.tau` and `analysis.thresholds[i]` integers 1-5, `analysis.w` >= 0,
 *   `analysis.cutoffs` and `analysis.contexts.cutoffs` positive integers or "oracle",
 *   `analysis.humanStudy` with `files`, two file names or more, and `run`, a run name).
 *   The CRUX settings stay as written; `cruxSettings(config)` fills in the ones left
 *   out from `CRUX_DEFAULTS`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * const cfg = parseExperimentConfigWith('{"name": "demo", "dataset": {"source": "sample"}}', [], {
 *   file: "/repo/configs/demo.json", root: "/repo",
 * });
 * assert.equal(cfg.workspace, "/repo/outputs/demo");
 * assert.deepEqual(cfg.dataset, { source: "sample", dir: "/repo/datasets/sample" });
 * ```
 */
export function parseExperimentConfigWith(
  text: string,
  methods: readonly ExperimentMethod[],
  opts: ExperimentConfigOptions & { file: string },
): CruxExperimentConfig {
  let raw = parseConfigJson(text, opts.file, "experiment config") as Record<string, unknown>;
  const bad = (field: string, message: string) =>
    new TypeError(`Cannot read experiment config "${opts.file}": field "${field}" ${message}`);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new TypeError(`Cannot read experiment config "${opts.file}": expected a JSON object`);
  }
  const sectioned = methods.filter((m) => m.section);
  const methodKeys = sectioned.map((m) => m.key);
  // A section naming methods (the comparison's) checks them against the experiment's own.
  const headlines = experimentHeadlines(methods, raw);
  for (const key of Object.keys(raw)) {
    if (!KEYS.includes(key) && !methodKeys.includes(key)) {
      throw bad(key, `is unknown; known fields: ${[...KEYS.slice(1), ...methodKeys].join(", ")}`);
    }
  }
  const sections: Record<string, unknown> = {};
  for (const m of sectioned) {
    if (raw[m.key] !== undefined) {
      sections[m.key] = m.section!.parse(raw[m.key], opts.file, headlines);
    }
  }
  const experiment = opts.experiment ??
    (typeof raw.workspace === "string" ? undefined : opts.defaultExperiment);
  const name = experiment ?? raw.name;
  if (typeof name !== "string" || !/^[\w.-]+$/.test(name)) {
    throw bad(
      "name",
      `must be a folder-safe name (letters, digits, . _ -), got ${JSON.stringify(name)}`,
    );
  }
  if (raw.backend !== undefined && raw.backend !== "offline" && raw.backend !== "openai") {
    throw bad("backend", `must be "offline" or "openai", got ${JSON.stringify(raw.backend)}`);
  }
  if (raw.missingText !== undefined && raw.missingText !== "keep" && raw.missingText !== "fill") {
    throw bad("missingText", `must be "keep" or "fill", got ${JSON.stringify(raw.missingText)}`);
  }
  checkCruxSettings(raw, bad);
  for (const key of ["retrieve", "rerank", "generate", "measures"]) {
    if (raw[key] !== undefined && !Array.isArray(raw[key])) throw bad(key, "must be a list");
  }
  const configDir = dirname(resolve(opts.file));
  const runsContext = { bad, online: raw.backend === "openai", configDir };
  const runs = checkRuns(
    raw.retrieve as Record<string, unknown>[] | undefined,
    raw.rerank as Record<string, unknown>[] | undefined,
    runsContext,
  );
  if (raw.grid !== undefined) {
    const first = (runs.retrieve ?? [{ name: "bm25" }]).map((r) => r.name);
    const taken = new Set([...first, ...(runs.rerank ?? []).map((r) => r.name)]);
    const expanded = parseGridSection(raw.grid, first, taken, runsContext);
    runs.rerank = [...(runs.rerank ?? []), ...expanded.rerank];
    raw = { ...raw, grid: expanded.grid };
  }
  const root = opts.root ?? Deno.cwd();
  const abs = (p: string) => (isAbsolute(p) ? p : join(configDir, p));
  const workspace = experiment !== undefined || typeof raw.workspace !== "string"
    ? join(root, "outputs", name)
    : abs(raw.workspace);
  const dataset = checkDataset(raw.dataset, bad, abs, join(root, "datasets", "sample"));
  const analysis = raw.analysis as AnalysisSettings | undefined;
  const { $comment: _, ...rest } = raw;
  for (const key of methodKeys) delete rest[key];
  const prompts = checkPrompts(raw.prompts, bad, abs);
  if (prompts) {
    const llm = (rest.llm ?? {}) as LlmSettings;
    rest.llm = { ...llm, prompts: { ...llm.prompts, ...prompts } };
  }
  return {
    ...(rest as Partial<CruxExperimentConfig>),
    ...(Object.keys(sections).length ? { methods: sections } : {}),
    file: opts.file,
    ...runs,
    name,
    workspace,
    ...(dataset ? { dataset } : {}),
    ...(analysis?.human || analysis?.humanStudy
      ? {
        analysis: {
          ...analysis,
          ...(analysis.human ? { human: abs(analysis.human) } : {}),
          ...(analysis.humanStudy
            ? { humanStudy: { ...analysis.humanStudy, files: analysis.humanStudy.files.map(abs) } }
            : {}),
        },
      }
      : {}),
  } as CruxExperimentConfig;
}

/** The config's `prompts` section with absolute file names (undefined when absent). */
function checkPrompts(
  value: unknown,
  bad: (field: string, why: string) => Error,
  abs: (p: string) => string,
): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw bad("prompts", 'must map step names to prompt files, e.g. {"answerability": "my.txt"}');
  }
  const out: Record<string, string> = {};
  for (const [id, file] of Object.entries(value)) {
    if (typeof file !== "string" || !file) throw bad(`prompts.${id}`, "must be a file name");
    out[id] = abs(file);
  }
  return out;
}

/**
 * Reads an experiment config file (see {@linkcode parseExperimentConfigWith}).
 *
 * @param path The JSON file.
 * @param methods The evaluation methods whose sections the config may have (the method registry).
 * @param opts `experiment`, `root` (default cwd).
 * @returns The checked config.
 * @throws {Deno.errors.NotFound} When the file does not exist (naming it).
 * @throws {Deno.errors.IsADirectory} When the path is a folder (naming it).
 * @throws {InputError} When the file is not UTF-8 (with line and column); a byte-order mark
 *   is accepted.
 * @throws {TypeError} When a file or folder the config names does not exist (naming the
 *   config file and the field); as {@linkcode parseExperimentConfigWith}.
 * @example
 * ```ts
 * import { loadExperimentConfigWith } from "@lib/pipeline/mod.ts";
 * const cfg = await loadExperimentConfigWith("notebooks/configs/online.json", [], { experiment: "x" });
 * ```
 */
export async function loadExperimentConfigWith(
  path: string,
  methods: readonly ExperimentMethod[],
  opts: ExperimentConfigOptions = {},
): Promise<CruxExperimentConfig> {
  const text = await readConfigText(path, "experiment config");
  const config = parseExperimentConfigWith(text, methods, {
    ...opts,
    file: path,
  });
  for (const [field, file] of configFiles(config)) {
    try {
      await Deno.stat(file);
    } catch {
      throw new TypeError(
        `Cannot read experiment config "${path}": field "${field}" names "${file}", which does not exist; relative paths resolve against the config's folder ${
          dirname(resolve(path))
        }`,
      );
    }
  }
  return config;
}

/** The files and folders a checked config names, by field (methods' fields: their absolute paths). */
function configFiles(config: CruxExperimentConfig): [string, string][] {
  const out: [string, string][] = [];
  const d = config.dataset;
  if (d?.source === "sample" && d.dir) out.push(["dataset.dir", d.dir]);
  if (d?.source === "crux") {
    for (const k of ["corpus", "topics", "judgments", "alignedTo", "subquestions"] as const) {
      if (d[k]) out.push([`dataset.${k}`, d[k]!]);
    }
    d.qrels?.forEach((q, i) => out.push([`dataset.qrels[${i}]`, q]));
  }
  if (config.analysis?.human) out.push(["analysis.human", config.analysis.human]);
  config.analysis?.humanStudy?.files.forEach((f, i) =>
    out.push([`analysis.humanStudy.files[${i}]`, f])
  );
  for (const [key, section] of Object.entries(config.methods ?? {})) {
    if (section === null || typeof section !== "object") continue;
    for (const [field, value] of Object.entries(section as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      values.forEach((v, i) => {
        if (typeof v === "string" && isAbsolute(v)) {
          out.push([`${key}.${field}${Array.isArray(value) ? `[${i}]` : ""}`, v]);
        }
      });
    }
  }
  return out;
}

/** Checks `dataset` and resolves its paths: the sample layout, or CRUX release files. */
function checkDataset(
  value: unknown,
  bad: (field: string, message: string) => Error,
  abs: (p: string) => string,
  sample: string,
): CruxExperimentConfig["dataset"] | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw bad("dataset", 'must be an object such as {"source": "sample"}');
  }
  const d = value as Record<string, unknown>;
  const str = (k: string, required: boolean) => {
    if (d[k] === undefined && !required) return undefined;
    if (typeof d[k] !== "string" || d[k] === "") throw bad(`dataset.${k}`, "must be a file path");
    return abs(d[k] as string);
  };
  if (d.source === "sample") {
    const known = ["source", "dir"];
    const extra = Object.keys(d).find((k) => !known.includes(k));
    if (extra) {
      throw bad(`dataset.${extra}`, `is unknown for the sample; known: ${known.join(", ")}`);
    }
    return { source: "sample", dir: str("dir", false) ?? sample };
  }
  if (d.source === "crux") {
    const known = [
      "source",
      "corpus",
      "topics",
      "judgments",
      "alignedTo",
      "subquestions",
      "qrels",
      "rewrite",
      "judge",
    ];
    const extra = Object.keys(d).find((k) => !known.includes(k));
    if (extra) throw bad(`dataset.${extra}`, `is unknown; known: ${known.join(", ")}`);
    const list = (k: string) => {
      if (d[k] === undefined) return undefined;
      if (!Array.isArray(d[k]) || !(d[k] as unknown[]).every((x) => typeof x === "string")) {
        throw bad(`dataset.${k}`, "must be a list of strings");
      }
      return d[k] as string[];
    };
    return {
      source: "crux",
      corpus: str("corpus", true)!,
      topics: str("topics", true)!,
      judgments: str("judgments", true)!,
      ...(d.alignedTo !== undefined ? { alignedTo: str("alignedTo", false) } : {}),
      ...(d.subquestions !== undefined ? { subquestions: str("subquestions", false) } : {}),
      ...(d.qrels !== undefined
        ? {
          qrels: listedOnce(
            list("qrels")!.map(abs),
            "dataset.qrels",
            bad,
            (p) => basename(p, extname(p)),
          ).paths,
        }
        : {}),
      ...(d.rewrite !== undefined ? { rewrite: list("rewrite") } : {}),
      ...(typeof d.judge === "string" ? { judge: d.judge } : {}),
    };
  }
  throw bad("dataset.source", `must be "sample" or "crux", got ${JSON.stringify(d.source)}`);
}
