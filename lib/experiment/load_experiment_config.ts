/**
 * Reading an experiment config with every evaluation method of the registry.
 *
 * @module
 */
import {
  type CruxExperimentConfig,
  type ExperimentConfigOptions,
  loadExperimentConfigWith,
} from "@lib/pipeline/mod.ts";
import { METHOD_REGISTRY, type MethodDeclaration } from "@lib/methods/mod.ts";
import { readHumanLabels } from "@lib/analysis/mod.ts";
import { readHumanAnnotations } from "@lib/formats/mod.ts";

/** The layout `analysis.human` expects, named in its error. */
const HUMAN_FORMAT = 'JSONL lines {"topicId", "condition" (or "run"), "coverage"} or ' +
  '{"id", "docid": "<topic>:report:<run>", "rating": [0-5 per sub-question]}';

/**
 * Reads and checks an experiment config file; its method sections (`nuggets`,
 * `keypoints`, `subq`, `compare`) are those of the method registry. Relative
 * paths resolve against the config file's folder.
 *
 * @param path The JSON file.
 * @param opts `experiment` (renames the experiment and its workspace), `root` (default cwd),
 *   `methods` (default the method registry).
 * @returns The checked config.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {TypeError} On an unknown key, a field of the wrong type or a missing file the
 *   config names, naming the config file and the field; also when `analysis.human` is not a
 *   human labels file, or an `analysis.humanStudy.files` entry not an annotator's label
 *   file (checked here, before any stage runs).
 * @example
 * ```ts
 * import { loadExperimentConfig } from "@lib/experiment/mod.ts";
 * const cfg = await loadExperimentConfig("notebooks/configs/sample-offline.json", { experiment: "sample" });
 * Object.keys(cfg.methods ?? {}); // the method sections the config has
 * ```
 */
export async function loadExperimentConfig(
  path: string,
  opts: ExperimentConfigOptions & { methods?: readonly MethodDeclaration[] } = {},
): Promise<CruxExperimentConfig> {
  const config = await loadExperimentConfigWith(path, opts.methods ?? METHOD_REGISTRY, opts);
  const human = config.analysis?.human;
  if (human) {
    // Checked before any stage runs, not when the analyses read it.
    try {
      await readHumanLabels(human);
    } catch (e) {
      const lines = String((e as Error).message).split("\n");
      const shown = lines.slice(0, 3).join("\n") + (lines.length > 3 ? "\n..." : "");
      throw new TypeError(
        `Cannot read experiment config "${path}": field "analysis.human" names "${human}", ` +
          `which is not a human labels file (expected ${HUMAN_FORMAT}):\n${shown}`,
      );
    }
  }
  const study = config.analysis?.humanStudy;
  for (const [i, file] of (study?.files ?? []).entries()) {
    try {
      await readHumanAnnotations(file);
    } catch (e) {
      const lines = String((e as Error).message).split("\n");
      const shown = lines.slice(0, 3).join("\n") + (lines.length > 3 ? "\n..." : "");
      throw new TypeError(
        `Cannot read experiment config "${path}": field "analysis.humanStudy.files[${i}]" names ` +
          `"${file}", which is not an annotator's label file of the CRUX human study:\n${shown}`,
      );
    }
  }
  return config;
}
