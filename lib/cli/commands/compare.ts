/**
 * `crux compare`: the evaluation methods side by side on one experiment, from
 * its measure table.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { type Command, type Io, UsageError } from "../command.ts";
import { intOption } from "../_options.ts";
import { cellTopicSets, computeStatistics, saveAnalysis } from "@lib/analysis/mod.ts";
import { loadExperimentConfig } from "@lib/experiment/mod.ts";
import {
  type CompareSection,
  METHOD_HEADLINES,
  METHOD_REGISTRY,
  methodAnalyses,
  type MethodAnalysesData,
} from "@lib/methods/mod.ts";
import { experimentHeadlines } from "@lib/pipeline/mod.ts";
import { guardAnalysisOutputs, tableCsv, tableText } from "@lib/report/mod.ts";
import { ANALYSIS_FOLDER, guardOutputs } from "@lib/formats/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";

/** The analyses compare saves (file base names under tables/ and figures/). */
export const COMPARE_ANALYSES: readonly string[] = [
  "method_system",
  "method_correlations",
  "method_disagreements",
  "method_significance",
  "method_answer_scores",
];

const HELP = `crux compare - the evaluation methods side by side on one experiment

Usage:
  crux compare (--config FILE | --workspace DIR) [options]

Reads each method's answer-level headline score per (run, topic) from the workspace's
measure table (CRUX report coverage Cov, nuggets strict_vital, key points KPR, typed
sub-questions subq_rating), keeps the answers every present method scored, and prints:
the system table (one row per run, best bold, 95% bootstrap intervals over topics, the
rows each run beats by a paired randomization test, Holm-corrected), Kendall tau-b,
Spearman and Pearson between methods across runs with the mean per-topic values, and
the topics where two methods order two runs oppositely. Methods without rows are listed
as missing. Tables and figures are saved under the experiment folder (tables/, figures/).

Options:
  --config FILE        experiment config (its workspace is read; its "compare" section gives
                       the methods, judges, sources and min-runs, which the flags override)
  --workspace DIR      a workspace folder instead of a config
  --experiment NAME    with --config: the experiment renamed (workspace outputs/NAME)
  --methods LIST       comma-separated subset of crux,nuggets,keypoints,subq (default all)
  --judge METHOD=NAME  judge of a method that has several in the measure table (repeatable)
  --source METHOD=SRC  source of a method whose headline comes from several (repeatable)
  --min-runs N         fewer runs make a correlation undefined (default 3)
  --no-significance    leave out intervals and tests
  --trials N           randomization trials (default 10000)
  --seed N             seed of the tests and intervals (default 1)
  --disagreements N    disagreements listed (default 20)
  --out DIR            where tables and figures go (default: the workspace folder)
  --format FORMAT      table (default), json or csv
  -h, --help           show this help

Example:
  crux compare --config notebooks/configs/sample-offline.json
`;

const num = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);

function toJson(d: MethodAnalysesData, workspace: string): Record<string, unknown> {
  const c = d.comparison;
  return {
    workspace,
    methods: d.present.map((p) => ({
      method: p.method,
      measure: p.measure,
      judge: p.judge,
      source: p.source,
      runs: p.runs,
    })),
    missing: d.missing.map((m) => ({ method: m.method, measure: m.measure })),
    runs: c.runs,
    left: c.left,
    system: c.system,
    correlations: c.correlations.map((k) =>
      Object.fromEntries(
        Object.entries(k).map(([key, v]) => [key, typeof v === "number" ? num(v) : v]),
      )
    ),
    disagreements: c.disagreements,
    significance: Object.fromEntries(
      Object.entries(d.significance).map(([m, s]) => [m, {
        alpha: s.alpha,
        intervals: s.intervals.map((i) => ({
          run: i.run,
          topics: i.topics,
          lower: i.lower.value,
          upper: i.upper.value,
        })),
        pairs: s.pairs.map((p) => ({
          a: p.a,
          b: p.b,
          topics: p.topics,
          meanDifference: p.meanDifference.value,
          randomizationP: p.randomizationP.value,
          tP: p.tP.value,
          randomizationHolm: p.randomizationHolm.value,
          tHolm: p.tHolm.value,
          significant: p.significant,
        })),
      }]),
    ),
  };
}

async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: "string" },
      workspace: { type: "string" },
      experiment: { type: "string" },
      methods: { type: "string" },
      judge: { type: "string", multiple: true },
      source: { type: "string", multiple: true },
      "min-runs": { type: "string" },
      "no-significance": { type: "boolean" },
      trials: { type: "string" },
      seed: { type: "string" },
      disagreements: { type: "string" },
      out: { type: "string" },
      format: { type: "string", default: "table" },
    },
  });
  if (!values.config === !values.workspace) {
    throw new UsageError("give either --config FILE or --workspace DIR");
  }
  const format = values.format!;
  if (!["table", "json", "csv"].includes(format)) {
    throw new UsageError(`--format must be table, json or csv, not "${format}"`);
  }
  const known = METHOD_HEADLINES.map((h) => h.method);
  const wanted = values.methods?.split(",").map((m) => m.trim()).filter(Boolean);
  const unknown = wanted?.filter((m) => !known.includes(m)) ?? [];
  if (unknown.length) {
    throw new UsageError(
      `--methods: unknown method "${unknown[0]}"; choose among ${known.join(", ")}`,
    );
  }
  const pick = (flag: string, list: string[] | undefined) => {
    const out: Record<string, string> = {};
    for (const j of list ?? []) {
      const [m, name] = j.split("=", 2);
      if (!known.includes(m) || name === undefined) {
        throw new UsageError(
          `--${flag} expects METHOD=NAME with METHOD among ${known.join(", ")}, got "${j}"`,
        );
      }
      out[m] = name;
    }
    return out;
  };
  const experiment = values.experiment ?? Deno.env.get("CRUX_EXPERIMENT");
  const config = values.config
    ? await loadExperimentConfig(values.config, { experiment })
    : undefined;
  // With --config, the config's compare section decides; a flag overrides its field.
  const section = (config?.methods?.compare ?? {}) as CompareSection;
  const judges = { ...section.judges, ...pick("judge", values.judge) };
  const sources = { ...section.sources, ...pick("source", values.source) };
  const methods = wanted ?? section.methods;
  const minRuns = intOption("min-runs", values["min-runs"], {
    min: 2,
    fallback: section.minRuns ?? 3,
  });
  const trials = intOption("trials", values.trials, { min: 1, fallback: 10_000 });
  const seed = intOption("seed", values.seed, { min: 0, fallback: 1 });
  const limit = intOption("disagreements", values.disagreements, { min: 0, fallback: 20 })!;
  const dir = values.workspace ?? config!.workspace;
  try {
    await Deno.stat(join(dir, "workspace.duckdb"));
  } catch {
    throw new Error(
      `Cannot open workspace "${dir}": it has no workspace.duckdb; run the experiment first`,
    );
  }
  const outDir = values.out ?? dir;
  await guardOutputs({
    inputs: { "--config": values.config },
    outputs: { "--out": { path: outDir, kind: ANALYSIS_FOLDER } },
    workspace: dir,
  });
  // Before any work: an --out folder must not hold files of these names the workbench did not write.
  await guardAnalysisOutputs(outDir, COMPARE_ANALYSES);
  // With --config, the methods the config names; with --workspace, the registry's.
  const headlines = config
    ? experimentHeadlines(METHOD_REGISTRY, config.methods)
    : METHOD_HEADLINES;
  const ws = await openWorkspace(dir);
  let analyses;
  try {
    const opts = {
      methods: methods ? headlines.filter((h) => methods.includes(h.method)) : headlines,
      judges,
      sources,
      minRuns,
      trials,
      seed,
      significance: !values["no-significance"],
      disagreements: limit,
    };
    // The tables' intervals and tests are statistics: computed here from the stored
    // measures as the statistics stage does (its settings may differ from the
    // experiment's), then read by the tables; the workspace's statistics are not changed.
    const asked = (await methodAnalyses(ws, { ...opts, statistics: [] }))
      .flatMap((a) => a.statistics ?? []);
    analyses = await methodAnalyses(ws, {
      ...opts,
      statistics: computeStatistics(asked),
    });
    // Each cell key names its stored row's topic set.
    analyses = analyses.map(await cellTopicSets(ws));
  } finally {
    ws.close();
  }
  for (const a of analyses) await saveAnalysis(a, outDir);
  const data = analyses[0].data;
  if (format === "json") {
    io.out(JSON.stringify(toJson(data, dir), null, 2) + "\n");
  } else if (format === "csv") {
    io.out(analyses.map((a) => `# ${a.name}\n${tableCsv(a.table!)}`).join("\n"));
  } else {
    io.out(analyses.map((a) => tableText(a.table!)).join("\n\n") + "\n");
  }
  if (data.missing.length) {
    io.err(
      `compare: missing methods (no rows in the measure table): ${
        data.missing.map((m) => m.method).join(", ")
      }\n`,
    );
  }
  io.err(`compare: tables and figures saved under ${outDir}\n`);
  return 0;
}

/** The `crux compare` command. */
export const compareCommand: Command = {
  name: "compare",
  summary:
    "Evaluation methods side by side: system table, correlations, disagreements, significance",
  help: HELP,
  run,
};
