/** The data and compared conditions of a workspace, as every CRUX analysis reads them (private). */
import type { Workspace } from "@lib/store/mod.ts";
import type { Condition, CruxData } from "./types.ts";
import { loadCruxData } from "./load_crux_data.ts";
import { reportRuns, resolveConditions } from "./resolve_conditions.ts";
import type { AnalyzeWorkspaceOptions } from "./analyze_workspace.ts";

/**
 * Loads the workspace data and resolves the conditions: the given pipelines
 * that have reports or whose reports all failed (the others left out, told to
 * `onNote`), then the references.
 */
export async function workspaceConditions(
  ws: Workspace,
  opts: AnalyzeWorkspaceOptions,
): Promise<{ data: CruxData; conditions: Condition[] }> {
  const data = await loadCruxData(ws, {
    passageJudge: opts.passageJudge,
    reportJudge: opts.reportJudge,
    backends: opts.backends,
  });
  // Runs with reports, and runs whose reports all failed (their rows stay, blank).
  const present = new Set(reportRuns(data).keys());
  const pipelines = opts.pipelines?.filter((p) => {
    if (!present.has(p.generation)) {
      opts.onNote?.(`Pipeline "${p.label ?? p.generation}" has no reports; left out`);
    }
    return present.has(p.generation);
  });
  return { data, conditions: resolveConditions(data, { pipelines }) };
}
