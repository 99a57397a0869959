/** Test helper: an experiment config from a plain object, as a config file would give it. */
import type { CruxExperimentConfig } from "@lib/pipeline/mod.ts";
import { parseExperimentConfig } from "@lib/experiment/mod.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Parses `fields` as an experiment config named `test` (paths relative to the repository). */
export function testConfig(fields: Record<string, unknown>): CruxExperimentConfig {
  return parseExperimentConfig(JSON.stringify({ name: "test", ...fields }), {
    file: "test-config.json",
    root: ROOT,
  });
}
