/**
 * Parsing an experiment config's text with every evaluation method of the registry.
 *
 * @module
 */
import {
  type CruxExperimentConfig,
  type ExperimentConfigOptions,
  parseExperimentConfigWith,
} from "@lib/pipeline/mod.ts";
import { METHOD_REGISTRY, type MethodDeclaration } from "@lib/methods/mod.ts";

/**
 * Parses and checks an experiment config (JSON) whose method sections are
 * those of the method registry; relative paths resolve against the folder of
 * `file`.
 *
 * @param text The JSON text.
 * @param opts `file` (for messages and paths), `experiment`, `root` (default cwd), `methods`
 *   (default the method registry).
 * @returns The checked config.
 * @throws {SyntaxError} When the text is not JSON.
 * @throws {TypeError} On an unknown key or a field of the wrong type, naming the file and field.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExperimentConfig } from "@lib/experiment/mod.ts";
 * const cfg = parseExperimentConfig('{"name": "x", "keypoints": {"rounds": 2}}', {
 *   file: "/repo/configs/x.json", root: "/repo",
 * });
 * assert.deepEqual(cfg.methods, { keypoints: { rounds: 2 } });
 * ```
 */
export function parseExperimentConfig(
  text: string,
  opts: ExperimentConfigOptions & { file: string; methods?: readonly MethodDeclaration[] },
): CruxExperimentConfig {
  return parseExperimentConfigWith(text, opts.methods ?? METHOD_REGISTRY, opts);
}
