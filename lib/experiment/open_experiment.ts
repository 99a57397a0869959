/**
 * Opening an experiment workspace, filled from the bundled sample when new.
 *
 * @module
 */
import { importSample, openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { selectRequired } from "@lib/construct/mod.ts";
import { experimentDir, sampleDir } from "./paths.ts";
import { fillTokenCounts } from "./fill_token_counts.ts";

/** Options of {@linkcode openExperiment}. */
export interface OpenExperimentOptions {
  /** Folder of the workspace. Default `outputs/<name>` under the repository root. */
  dir?: string;
  /** Sample-layout dataset imported when the workspace has no topics. Default `datasets/sample`. */
  dataset?: string;
  /** Answerability threshold of the required-subset selection. Default 3. */
  tau?: number;
  /** Judge whose ratings drive the selection. Default: the only judge of passage ratings. */
  judge?: string;
  /** Receives one line per action taken (import, selection). */
  onNote?: (message: string) => void;
}

/**
 * Opens (or creates) the workspace of an experiment. A new workspace is filled
 * from a sample-layout dataset, and when it has no `crux_pr` qrels yet the
 * required passage subset P* is selected from its ratings (the CRUX greedy
 * rule), so measures at the `oracle` cutoff are available. Both steps are
 * skipped when their output exists, so re-opening costs nothing.
 *
 * @param name Experiment name (the folder under `outputs/`).
 * @param opts See {@linkcode OpenExperimentOptions}.
 * @returns The open workspace; call `close()` when done.
 * @throws {Error} When the workspace is locked by another process or the dataset is malformed.
 * @example
 * ```ts
 * import { openExperiment } from "@lib/experiment/mod.ts";
 * const dir = await Deno.makeTempDir(); // default: outputs/sample
 * const ws = await openExperiment("sample", { dir });
 * console.log(await ws.count("passages"));
 * ws.close();
 * ```
 */
export async function openExperiment(
  name: string,
  opts: OpenExperimentOptions = {},
): Promise<Workspace> {
  const ws = await openWorkspace(opts.dir ?? experimentDir(name));
  try {
    if (await ws.count("topics") === 0) {
      const dataset = opts.dataset ?? sampleDir();
      const counts = await importSample(ws, dataset);
      opts.onNote?.(`imported ${dataset}: ${JSON.stringify(counts)}`);
    }
    const counted = await fillTokenCounts(ws);
    if (counted > 0) opts.onNote?.(`counted Llama-3.1 tokens of ${counted} passages`);
    if (!(await ws.qrelsNames()).includes("crux_pr")) {
      const summary = await selectRequired(ws, {
        tau: opts.tau ?? 3,
        judge: opts.judge,
      });
      opts.onNote?.(
        `selected required passages (tau ${opts.tau ?? 3}, judge ${summary.judge}): ` +
          `${summary.written} qrels, dropped topics: ${summary.dropped.join(", ") || "none"}`,
      );
    }
    return ws;
  } catch (error) {
    ws.close();
    throw error;
  }
}
