/**
 * The analyses of an experiment's methods: those of every registry method whose
 * section the config has, in registry order. The statistics stage asks their
 * tables which statistics to store; the analyze stage saves them.
 *
 * @module
 */
import { type CruxExperimentConfig, experimentHeadlines } from "@lib/pipeline/mod.ts";
import type { Analysis } from "@lib/analysis/mod.ts";
import { METHOD_REGISTRY, type MethodDeclaration } from "@lib/methods/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";

/**
 * A function making the analyses of the methods `config` has a section for
 * (the comparison reads the headlines of the experiment's methods only).
 *
 * @param config The checked experiment config.
 * @param opts The methods (a test's own registry; default {@linkcode METHOD_REGISTRY}) and a note callback.
 * @returns The function, for `analyzeExperiment`'s and `statisticsStep`'s `methodAnalyses`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configuredMethodAnalyses, loadExperimentConfig } from "@lib/experiment/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const config = await loadExperimentConfig("notebooks/configs/sample-grid.json");
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * // This config names no method: nothing to analyse.
 * assert.deepEqual(await configuredMethodAnalyses(config)(ws), []);
 * ws.close();
 * ```
 */
export function configuredMethodAnalyses(
  config: CruxExperimentConfig,
  opts: { methods?: readonly MethodDeclaration[]; onNote?: (message: string) => void } = {},
): (ws: Workspace) => Promise<Analysis[]> {
  return async (ws) => {
    const out: Analysis[] = [];
    const methods = opts.methods ?? METHOD_REGISTRY;
    for (const method of methods) {
      const section = config.methods?.[method.key];
      if (section === undefined || !method.analyses) continue;
      out.push(
        ...await method.analyses(ws, {
          section,
          experiment: config.name,
          headlines: experimentHeadlines(methods, config.methods),
          onNote: opts.onNote,
        }),
      );
    }
    return out;
  };
}
