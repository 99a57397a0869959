/**
 * Which pipelines and references an analysis compares.
 *
 * @module
 */
import type { Condition, ConditionKind, CruxData } from "./types.ts";
import { rankings } from "@lib/construct/mod.ts";

/** A pipeline named explicitly (e.g. from an experiment config). */
export interface PipelineSpec {
  /** Generation run of the pipeline's reports. */
  generation: string;
  /** Retrieval run of its contexts. Default: the run of the same name, else inferred. */
  run?: string;
  /** Display label. Default: the generation run name. */
  label?: string;
}

/** Options of {@linkcode resolveConditions}. */
export interface ResolveConditionsOptions {
  /** Pipelines to compare, in order. Default: every generation run of condition `rag`, by name. */
  pipelines?: readonly PipelineSpec[];
  /** Include the reference rows (direct, oracle context, oracle result) found in the data. Default true. */
  references?: boolean;
}

/** Default labels of the reference conditions. */
export const REFERENCE_LABELS: Record<Exclude<ConditionKind, "pipeline">, string> = {
  "direct": "Direct (no context)",
  "oracle-context": "Oracle context P*",
  "oracle-result": "Oracle result",
};

const REFERENCE_ORDER = ["direct", "oracle-context", "oracle-result"] as const;

/**
 * Lists the conditions of a comparison: the retrieval pipelines (generation
 * runs of condition `rag`, or the given ones) and the references found in
 * `generations` (condition `direct`, `oracle-context`, `oracle-result`),
 * including runs whose reports all failed (`failedReports`). A
 * pipeline's retrieval run is the run with the generation's name when there
 * is one; otherwise the run whose top-|context| ranking equals the stored
 * context ids on the most topics (none when no run matches any topic).
 *
 * @param data Workspace data (see `loadCruxData`).
 * @param opts `pipelines` (default: inferred), `references` (default true).
 * @returns Pipelines first, then references in the order direct, oracle context, oracle result.
 * @throws {RangeError} When a named pipeline has no reports or a named run does not exist.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { loadCruxData } from "@lib/analysis/mod.ts";
 * import { resolveConditions } from "@lib/analysis/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * // reports of a pipeline and two references (normally written by the generate stage)
 * await ws.upsert("generations", [
 *   { run: "rag-bm25", topicId: "sample-01", text: "A report.", condition: "rag" },
 *   { run: "oracle-result", topicId: "sample-01", text: "A summary.", condition: "oracle-result" },
 *   { run: "direct", topicId: "sample-01", text: "An answer.", condition: "direct" },
 * ]);
 * const data = await loadCruxData(ws);
 * // pipelines first, then the references in the order direct, oracle context, oracle result
 * assert.deepEqual(resolveConditions(data).map((c) => c.name), ["rag-bm25", "direct", "oracle-result"]);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function resolveConditions(
  data: CruxData,
  opts: ResolveConditionsOptions = {},
): Condition[] {
  const kinds = reportRuns(data);
  const specs: PipelineSpec[] = opts.pipelines
    ? [...opts.pipelines]
    : [...kinds].filter(([, c]) => !(REFERENCE_ORDER as readonly string[]).includes(c))
      .map(([generation]) => ({ generation })).sort((a, b) => a.generation < b.generation ? -1 : 1);
  const out: Condition[] = specs.map((s) => {
    if (!kinds.has(s.generation)) {
      throw new RangeError(
        `Cannot compare pipeline "${s.generation}": the workspace has no reports of that run; generate them first (known runs: ${
          [...kinds.keys()].join(", ") || "none"
        })`,
      );
    }
    if (s.run !== undefined && !data.runs.has(s.run)) {
      throw new RangeError(
        `Cannot compare pipeline "${s.generation}": retrieval run "${s.run}" is not in the workspace (known runs: ${
          [...data.runs.keys()].join(", ") || "none"
        })`,
      );
    }
    const bare = s.generation.startsWith("rag-") ? s.generation.slice(4) : undefined;
    const named = data.runs.has(s.generation)
      ? s.generation
      : bare && data.runs.has(bare)
      ? bare
      : undefined;
    const run = s.run ?? named ?? inferRun(data, s.generation);
    const label = s.label ?? (named && named === bare ? bare : s.generation);
    return { name: s.generation, label, kind: "pipeline", generation: s.generation, run };
  });
  if (opts.references ?? true) {
    for (const kind of REFERENCE_ORDER) {
      const generation = [...kinds].find(([, c]) => c === kind)?.[0];
      if (generation) out.push({ name: kind, label: REFERENCE_LABELS[kind], kind, generation });
    }
  }
  return out;
}

/**
 * The generation runs a comparison can show, with their conditions: every run
 * with a stored report, and every run whose reports all failed (its row stays,
 * blank with the reason), in first-seen order.
 *
 * @param data Workspace data (see `loadCruxData`).
 * @returns Run -> condition (`rag` where unrecorded).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportRuns } from "@lib/analysis/resolve_conditions.ts";
 * const failedReports = new Map([["rag-bm25", { condition: "rag", topics: ["t1"] }]]);
 * const data = { generations: [{ run: "direct", topicId: "t1", text: "x", condition: "direct" }], failedReports };
 * assert.deepEqual([...reportRuns(data)], [["direct", "direct"], ["rag-bm25", "rag"]]);
 * ```
 */
export function reportRuns(
  data: Pick<CruxData, "generations" | "failedReports">,
): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const g of data.generations) if (!kinds.has(g.run)) kinds.set(g.run, g.condition ?? "rag");
  for (const [run, f] of data.failedReports ?? []) {
    if (!kinds.has(run)) kinds.set(run, f.condition ?? "rag");
  }
  return kinds;
}

function inferRun(data: CruxData, generation: string): string | undefined {
  const contexts = data.generations.filter((g) => g.run === generation && g.contextIds?.length);
  let best: string | undefined;
  let bestCount = 0;
  for (const [name, rows] of data.runs) {
    const ranked = rankings(rows);
    let count = 0;
    for (const g of contexts) {
      const top = ranked.get(g.topicId)?.slice(0, g.contextIds!.length) ?? [];
      if (top.length === g.contextIds!.length && top.every((id, i) => id === g.contextIds![i])) {
        count++;
      }
    }
    if (count > bestCount) [best, bestCount] = [name, count];
  }
  return best;
}
