/**
 * `crux batch export|import`: run a large job through the OpenAI Batch API (or
 * vLLM's batch runner) and bring the results into the workspace cache.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { guardOutputs, jsonlOf, readTextFile, writeAtomic } from "@lib/formats/mod.ts";

/** Batch API request files, recognised by their records' fields. */
const REQUESTS = jsonlOf("Batch API requests (JSONL)", ["custom_id", "body"]);
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import {
  answerabilityRequests,
  exportBatch,
  importBatch,
  LlmClient,
  openCallCache,
  parseAnswerabilityPairs,
  resolveRoleConfig,
} from "@lib/llm/mod.ts";
import { clientFlags, clientOverrides, readLlmConfig } from "./_llm_flags.ts";
import { loadExperimentConfig, RUN_STAGES, type RunStage } from "@lib/experiment/mod.ts";
import { exportExperimentBatch } from "./_export_experiment.ts";

const HELP = `Usage:
  crux batch export --config FILE --out REQUESTS.jsonl [--until STAGE] [--experiment NAME]
  crux batch export answerability --input PAIRS.jsonl --out REQUESTS.jsonl [options]
  crux batch import --file RESULTS.jsonl [--requests REQUESTS.jsonl] [--workspace DIR]

export --config  runs the experiment's stages (as \`crux run\` would, every method's model
        stages included) on a copy of its workspace, taking each chat request the cache
        cannot answer instead of sending it; writes them as one Batch input file and
        marks them pending in the workspace. The workspace itself is not changed
        otherwise. Stages that need the answers of exported requests produce their own
        requests only after the import, so repeat export and import until export writes
        0 requests; \`crux run\` then makes no model call.

export  writes the requests the workspace cache cannot answer yet as OpenAI Batch input
        ({"custom_id", "method", "url", "body"}; custom_id = cache key) and marks them
        pending in the workspace. Options as for \`crux judge answerability\`
        (--model, --base-url, --templates, --prompt, --workspace, --config).
import  stores a Batch output file ({"id", "custom_id", "response", "error"}) in the cache;
        re-running the same \`crux judge\` command then sends no request.
        --requests is needed only for requests the workspace did not export.

Example:
  crux batch export answerability --input pairs.jsonl --out batch.jsonl --model gpt-4o-mini
  # submit batch.jsonl, download the output, then:
  crux batch import --file batch_output.jsonl
  crux judge answerability --input pairs.jsonl --out ratings.jsonl --model gpt-4o-mini
`;

async function runExport(args: string[], io: Io): Promise<number> {
  const [step, ...rest] = args;
  if (step?.startsWith("--")) return await runExportExperiment(args, io);
  if (step !== "answerability") {
    throw new UsageError(
      `Unknown step "${
        step ?? ""
      }" to export: use answerability, or --config FILE for an experiment`,
    );
  }
  const { values } = parseArgs({
    args: rest,
    options: { input: { type: "string" }, out: { type: "string" }, ...clientFlags },
  });
  if (!values.input || !values.out) throw new UsageError("--input and --out are required");
  await guardOutputs({
    inputs: { "--input": values.input, "--config": values.config },
    outputs: { "--out": { path: values.out, kind: REQUESTS } },
    workspace: values.workspace ?? join("outputs", "default"),
  });
  const pairs = parseAnswerabilityPairs(await readTextFile(values.input), {
    file: values.input,
  });
  const config = await readLlmConfig(values.config);
  const settings = resolveRoleConfig("judge", { config, overrides: clientOverrides(values) });
  const requests = await answerabilityRequests(pairs, { templatesDir: settings.templatesDir });
  const opened = await openCallCache(values.workspace ?? join("outputs", "default"));
  try {
    const client = new LlmClient({ ...settings, cache: opened.cache });
    const result = await exportBatch(requests, client, opened.cache);
    await writeAtomic(values.out, result.jsonl);
    io.out(
      `Exported ${result.exported} requests to ${values.out} (${result.cached} already cached)\n`,
    );
  } finally {
    await opened.close();
  }
  return 0;
}

async function runExportExperiment(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: "string" },
      out: { type: "string" },
      until: { type: "string" },
      experiment: { type: "string" },
    },
  });
  if (!values.config || !values.out) throw new UsageError("--config and --out are required");
  const until = (values.until ?? "analyze") as RunStage;
  if (!RUN_STAGES.includes(until)) {
    throw new UsageError(
      `--until "${values.until}" is not a stage; use one of ${RUN_STAGES.join(", ")}`,
    );
  }
  const experiment = values.experiment ?? Deno.env.get("CRUX_EXPERIMENT");
  const config = await loadExperimentConfig(values.config, { experiment });
  await guardOutputs({
    inputs: { "--config": values.config },
    outputs: { "--out": { path: values.out, kind: REQUESTS } },
    workspace: config.workspace,
  });
  const r = await exportExperimentBatch(config, {
    until,
    onEvent: (e) => io.err(`batch export: [${e.stage}] ${e.message}\n`),
  });
  await writeAtomic(values.out, r.jsonl);
  io.out(
    `Exported ${r.exported} requests to ${values.out} (${r.cached} already cached)` +
      (r.stoppedBy ? `; the stages stopped early: ${r.stoppedBy}` : "") + "\n",
  );
  return 0;
}

async function runImport(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      file: { type: "string" },
      requests: { type: "string" },
      workspace: { type: "string" },
    },
  });
  if (!values.file) throw new UsageError("--file is required");
  const text = await readTextFile(values.file);
  const requests = values.requests ? await readTextFile(values.requests) : undefined;
  const opened = await openCallCache(values.workspace ?? join("outputs", "default"));
  try {
    const r = await importBatch(text, opened.cache, { file: values.file, requests });
    io.out(
      `Imported ${r.ok} answers and ${r.failed} failures from ${values.file} (${r.unchanged} already stored)\n`,
    );
  } finally {
    await opened.close();
  }
  return 0;
}

/**
 * `crux batch`: export pending requests as OpenAI Batch JSONL, import results.
 *
 * @example
 * ```ts
 * import { main } from "@lib/cli/main.ts";
 * const workspace = await Deno.makeTempDir(); // e.g. "outputs/demo"
 * // out.jsonl: the output file of an OpenAI Batch job
 * await main(["batch", "import", "--file", "out.jsonl", "--workspace", workspace]);
 * ```
 */
export const batchCommand: Command = {
  name: "batch",
  summary: "export requests as OpenAI Batch JSONL and import the results",
  help: HELP,
  run(args: string[], io: Io): Promise<number> {
    return runAction(args, io, {
      what: "batch action",
      actions: { export: runExport, import: runImport },
      help: () => HELP,
    });
  },
};
