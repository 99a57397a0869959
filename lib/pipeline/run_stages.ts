/**
 * Runs declared stages in order, each only when its fingerprint changed.
 *
 * @module
 */
import { readStageRuns, recordStageRun, type Workspace } from "@lib/store/mod.ts";
import { canonicalJson, paramChanges, stageFingerprint } from "./fingerprint.ts";

/** One stage instance of an experiment (e.g. `retrieve:bm25`). */
export interface StageSpec {
  /** Unique id, `stage` or `stage:instance`. */
  id: string;
  /** The stage kind (`retrieve`, `generate`, ...), for `from` and `until`. */
  stage: string;
  /** Version of the stage's code; bump it when its output changes. */
  version: number;
  /** Parameters (JSON) that decide its output. */
  params: unknown;
  /** Ids of the stage instances whose output it reads (declared earlier in the list). */
  deps: readonly string[];
  /** Deletes the rows it wrote before, so a re-run replaces them. Default: nothing. */
  clear?: (ws: Workspace) => Promise<void>;
  /**
   * Computes its output; resolves to a one-line summary, or to an outcome that
   * also counts the items (model calls) that have no result.
   */
  run: (ws: Workspace) => Promise<string | StageOutcome>;
}

/**
 * What one run of a stage instance produced. An instance with failed or
 * unparsed items is incomplete: it is recorded as such, so the next run
 * retries it (its model calls that succeeded come from the cache) and re-runs
 * the stages that read it.
 */
export interface StageOutcome {
  /** One-line summary. */
  summary: string;
  /** Items the stage owns (e.g. reports to write, ratings to make). */
  items?: number;
  /** Items whose call failed (after its retries), or whose answer was empty. */
  failed?: number;
  /** Items whose answer could not be parsed. */
  unparsed?: number;
}

/** A stage instance that ran but left items without a result. */
export interface IncompleteStage {
  id: string;
  stage: string;
  /** Items the stage owns (at least `failed + unparsed`). */
  items: number;
  failed: number;
  unparsed: number;
}

/** What happened to one stage instance. */
export interface StageEvent {
  id: string;
  stage: string;
  /**
   * `fresh`: fingerprint matched, skipped. `ran`: computed. `incomplete`: computed,
   * but some items failed or were unparsed (retried next run). `stopped`: past `until`.
   */
  state: "fresh" | "ran" | "incomplete" | "stopped";
  /** Why it ran (`new`, `params changed: k1: 0.9 -> 1.2`, `upstream changed: retrieve:bm25`, `forced`) or its summary. */
  message: string;
}

/** Options of {@linkcode runStages}. */
export interface RunStagesOptions {
  /** Stage kinds in pipeline order (for `from` and `until`). */
  order: readonly string[];
  /** Re-run every instance of this stage kind and later ones, fresh or not. */
  from?: string;
  /** Run stages up to and including this kind; later ones are not started. */
  until?: string;
  onEvent?: (event: StageEvent) => void;
  /**
   * How many model requests were exported (taken for a batch file instead of
   * sent) so far. With it, an instance whose run exported requests holds back
   * every instance that depends on it, directly or not: those are not started
   * (state `stopped`), since their inputs wait for the exported answers and
   * requests built from them now would be asked in vain.
   */
  exported?: () => number;
}

/** Result of {@linkcode runStages}. */
export interface RunStagesResult {
  ran: string[];
  fresh: string[];
  stopped: string[];
  /** Instances (among `ran`) that left failed or unparsed items; a re-run retries them. */
  incomplete: IncompleteStage[];
}

/** Marks the recorded fingerprint of an incomplete instance, so it never matches. */
const INCOMPLETE = "incomplete:";

/**
 * Runs the stages in list order. An instance whose fingerprint (parameters,
 * version, upstream fingerprints) equals the one recorded in the memo (kind `stage`) is
 * fresh and skipped without any write; otherwise its old rows are cleared, it
 * runs, and its fingerprint is recorded. A changed parameter therefore re-runs
 * exactly the stages that depend on it, and an unchanged re-run does nothing.
 * An instance whose outcome counts failed or unparsed items is recorded as
 * incomplete: it is not fresh on the next run, which retries it and re-runs
 * every stage that reads it.
 *
 * @param ws The workspace (holds the memo).
 * @param specs Stage instances, each after the ones it depends on.
 * @param opts `order` of stage kinds, `from`, `until`, `onEvent`.
 * @returns The ids that ran, were fresh, or were not started.
 * @throws {RangeError} On an unknown dependency or stage kind, or a dependency declared later.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runStages } from "@lib/pipeline/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * const spec = { id: "hello", stage: "hello", version: 1, params: { n: 1 }, deps: [], run: () => Promise.resolve("hi") };
 * assert.deepEqual((await runStages(ws, [spec], { order: ["hello"] })).ran, ["hello"]);
 * assert.deepEqual((await runStages(ws, [spec], { order: ["hello"] })).fresh, ["hello"]);
 * ws.close();
 * ```
 */
export async function runStages(
  ws: Workspace,
  specs: readonly StageSpec[],
  opts: RunStagesOptions,
): Promise<RunStagesResult> {
  const rank = (stage: string) => {
    const i = opts.order.indexOf(stage);
    if (i < 0) {
      throw new RangeError(`Unknown stage "${stage}"; stages are ${opts.order.join(", ")}`);
    }
    return i;
  };
  const until = opts.until === undefined ? Infinity : rank(opts.until);
  const from = opts.from === undefined ? Infinity : rank(opts.from);
  const recorded = await readStageRuns(ws);
  const fingerprints = new Map<string, string>();
  const changed = new Set<string>();
  const result: RunStagesResult = { ran: [], fresh: [], stopped: [], incomplete: [] };
  const say = (e: StageEvent) => opts.onEvent?.(e);
  const waiting = new Set<string>(); // exported requests, or behind one that did
  for (const spec of specs) {
    for (const d of spec.deps) {
      if (!fingerprints.has(d)) {
        throw new RangeError(
          `Stage "${spec.id}" depends on "${d}", which is not declared before it`,
        );
      }
    }
    const fp = await stageFingerprint(
      spec.id,
      spec.version,
      spec.params,
      spec.deps.map((d) => fingerprints.get(d)!),
    );
    fingerprints.set(spec.id, fp);
    const r = rank(spec.stage);
    if (r > until) {
      result.stopped.push(spec.id);
      say({
        id: spec.id,
        stage: spec.stage,
        state: "stopped",
        message: `not started (--until ${opts.until})`,
      });
      continue;
    }
    const waitsFor = spec.deps.filter((d) => waiting.has(d));
    if (waitsFor.length) {
      waiting.add(spec.id);
      result.stopped.push(spec.id);
      say({
        id: spec.id,
        stage: spec.stage,
        state: "stopped",
        message: `not started: waits for the exported requests of ${waitsFor.join(", ")}`,
      });
      continue;
    }
    const before = recorded.get(spec.id);
    // An upstream instance that ran again with the same fingerprint (it was
    // incomplete) may have changed what this one reads: not fresh either.
    const upstream = spec.deps.filter((d) => changed.has(d));
    if (before?.fingerprint === fp && r < from && !upstream.length) {
      result.fresh.push(spec.id);
      say({ id: spec.id, stage: spec.stage, state: "fresh", message: "up to date" });
      continue;
    }
    const why = r >= from
      ? `forced (--from ${opts.from})`
      : !before
      ? "new"
      : before.fingerprint === INCOMPLETE + fp
      ? `incomplete last time: ${before.summary}`
      : upstream.length
      ? `upstream changed: ${upstream.join(", ")}`
      : paramChanges(before.params, spec.params).length
      ? `params changed: ${paramChanges(before.params, spec.params).join("; ")}`
      : "code version changed";
    say({ id: spec.id, stage: spec.stage, state: "ran", message: why });
    await spec.clear?.(ws); // rows of an earlier run of this stage (or of an older workspace)
    const exportedBefore = opts.exported?.() ?? 0;
    const out = await spec.run(ws);
    if ((opts.exported?.() ?? 0) > exportedBefore) waiting.add(spec.id);
    const outcome: StageOutcome = typeof out === "string" ? { summary: out } : out;
    const failed = outcome.failed ?? 0;
    const unparsed = outcome.unparsed ?? 0;
    const incomplete = failed + unparsed > 0;
    await recordStageRun(ws, {
      id: spec.id,
      stage: spec.stage,
      fingerprint: incomplete ? INCOMPLETE + fp : fp,
      params: canonicalJson(spec.params),
      summary: outcome.summary,
    });
    changed.add(spec.id);
    result.ran.push(spec.id);
    if (incomplete) {
      result.incomplete.push({
        id: spec.id,
        stage: spec.stage,
        items: Math.max(outcome.items ?? 0, failed + unparsed),
        failed,
        unparsed,
      });
    }
    say({
      id: spec.id,
      stage: spec.stage,
      state: incomplete ? "incomplete" : "ran",
      message: outcome.summary,
    });
  }
  return result;
}
