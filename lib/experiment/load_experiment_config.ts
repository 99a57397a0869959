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
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";

/**
 * Reads and checks an experiment config file; its method sections (`nuggets`,
 * `keypoints`, `subq`, `compare`) are those of the method registry. Relative
 * paths resolve against the config file's folder.
 *
 * @param path The JSON file.
 * @param opts `experiment` (renames the experiment and its workspace), `root` (default cwd).
 * @returns The checked config.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {TypeError} On an unknown key, a field of the wrong type or a missing file the
 *   config names, naming the config file and the field.
 * @example
 * ```ts
 * import { loadExperimentConfig } from "@lib/experiment/mod.ts";
 * const cfg = await loadExperimentConfig("notebooks/configs/sample-offline.json", { experiment: "sample" });
 * Object.keys(cfg.methods ?? {}); // the method sections the config has
 * ```
 */
export function loadExperimentConfig(
  path: string,
  opts: ExperimentConfigOptions = {},
): Promise<CruxExperimentConfig> {
  return loadExperimentConfigWith(path, METHOD_REGISTRY, opts);
}
