/**
 * The experiment side of `crux batch export --config`: the configured stages run
 * on a copy of the workspace with a batch collector attached, so every chat
 * request the cache cannot answer is taken instead of sent.
 *
 * @module
 */
import { join } from "node:path";
import { runCruxExperiment, type RunStage } from "@lib/experiment/mod.ts";
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import { BatchCollector, exportCollected, JOURNAL_FILE, openCallCache } from "@lib/llm/mod.ts";

/** What {@link exportExperimentBatch} produced. */
export interface ExperimentBatch {
  /** OpenAI Batch input JSONL (`""` when nothing is left to ask). */
  jsonl: string;
  exported: number;
  cached: number;
  /** The error that stopped the stages on the copy, when one did (the export holds what was collected). */
  stoppedBy?: string;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.name.startsWith(JOURNAL_FILE)) continue;
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/**
 * Runs the experiment's stages on a copy of its workspace, collecting the chat
 * requests the cache cannot answer, and records them as pending in the real
 * workspace.
 *
 * @param config The experiment config (its workspace is read, not changed except for pending calls).
 * @param opts `until` (last stage, default `analyze`), `env` (model settings; default the
 *   process environment), `onEvent` (stage messages of the run on the copy).
 * @returns The Batch input text and counts.
 */
export async function exportExperimentBatch(
  config: CruxExperimentConfig,
  opts: {
    until?: RunStage;
    env?: Record<string, string | undefined>;
    onEvent?: (e: { stage: string; message: string }) => void;
  } = {},
): Promise<ExperimentBatch> {
  // Fold in any journal a killed run left, so the copy sees every answer.
  const real = await openCallCache(config.workspace);
  await real.close();
  const copy = await Deno.makeTempDir({ prefix: "crux-batch-export-" });
  const collector = new BatchCollector();
  let stoppedBy: string | undefined;
  try {
    await copyDir(config.workspace, copy);
    const detach = collector.attach(join(copy, JOURNAL_FILE));
    try {
      await runCruxExperiment({ ...config, workspace: copy }, {
        until: opts.until ?? "analyze",
        env: opts.env,
        onEvent: opts.onEvent,
        // A stage reading what exported requests will answer waits for the next export.
        exported: () => collector.size,
      });
    } catch (error) {
      stoppedBy = error instanceof Error ? error.message.split("\n")[0] : String(error);
    } finally {
      detach();
    }
  } finally {
    await Deno.remove(copy, { recursive: true });
  }
  const opened = await openCallCache(config.workspace);
  try {
    return { ...(await exportCollected(collector.requests, opened.cache)), stoppedBy };
  } finally {
    await opened.close();
  }
}
