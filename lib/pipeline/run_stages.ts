/**
 * Runs declared stages in order, each only when its fingerprint changed.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
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
  /** True on the event that announces the instance starting (its message says why). */
  starting?: boolean;
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
  /**
   * How many stage instances may run at once (default 1: one after another, in
   * list order). With more, an instance starts once every instance it depends on
   * has finished; among those ready, in list order. Each running instance gets a
   * fork of the workspace (a connection of its own, so its transactions and
   * temporary tables are its own), closed when it ends. Stages that call models
   * should share their clients' limits (`roleClient` does for equal settings), so
   * that instances running at once keep to one concurrency. With `exported`,
   * instances run one at a time: what each exported must be told apart.
   */
  parallel?: number;
}

/** Result of {@linkcode runStages}. */
export interface RunStagesResult {
  ran: string[];
  fresh: string[];
  stopped: string[];
  /** Instances (among `ran`) that left failed or unparsed items; a re-run retries them. */
  incomplete: IncompleteStage[];
}

/** The stage instance whose work is running, along its asynchronous calls. */
const runningStage = new AsyncLocalStorage<string>();

/**
 * The id of the stage instance whose work is calling, when called (directly or
 * through any chain of asynchronous calls) from a stage that {@linkcode runStages}
 * runs; undefined elsewhere. With `parallel`, this tells apart the progress
 * reports of instances running at once.
 *
 * @returns The instance id, or undefined outside a stage.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { currentStage, runStages } from "@lib/pipeline/mod.ts";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * const seen: (string | undefined)[] = [];
 * const spec = {
 *   id: "hello:a", stage: "hello", version: 1, params: {}, deps: [],
 *   run: async () => { await Promise.resolve(); seen.push(currentStage()); return "hi"; },
 * };
 * await runStages(ws, [spec], { order: ["hello"] });
 * assert.deepEqual(seen, ["hello:a"]);
 * assert.equal(currentStage(), undefined);
 * ws.close();
 * ```
 */
export function currentStage(): string | undefined {
  return runningStage.getStore();
}

/** Marks the recorded fingerprint of an incomplete instance, so it never matches. */
const INCOMPLETE = "incomplete:";

/** What {@linkcode runStages} does with an instance whose upstream instances are all done. */
type Decision =
  | { state: "stopped"; message: string }
  | { state: "fresh" }
  | { state: "run"; why: string };

/**
 * Runs the stages in list order (or, with `parallel`, several at once, each
 * after the instances it depends on). An instance whose fingerprint (parameters,
 * version, upstream fingerprints) equals the one recorded in the memo (kind `stage`) is
 * fresh and skipped without any write; otherwise its old rows are cleared, it
 * runs, and its fingerprint is recorded. A changed parameter therefore re-runs
 * exactly the stages that depend on it, and an unchanged re-run does nothing.
 * An instance whose outcome counts failed or unparsed items is recorded as
 * incomplete: it is not fresh on the next run, which retries it and re-runs
 * every stage that reads it.
 *
 * When an instance throws, no other instance starts; those already running
 * finish (and are recorded), then the first error is thrown. An instance that
 * DuckDB stopped with a write conflict (an instance running beside it wrote the
 * same rows) runs once more, alone, once the running ones have finished.
 *
 * @param ws The workspace (holds the memo).
 * @param specs Stage instances, each after the ones it depends on.
 * @param opts `order` of stage kinds, `from`, `until`, `onEvent`, `exported`, `parallel`.
 * @returns The ids that ran, were fresh, or were not started, each list in list order.
 * @throws {RangeError} On an unknown dependency or stage kind, a dependency declared
 *   later, or a `parallel` that is not a positive integer (before anything runs).
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
  const parallel = opts.parallel ?? 1;
  if (!Number.isInteger(parallel) || parallel < 1) {
    throw new RangeError(
      `Invalid parallel ${opts.parallel}: use the number of stage instances to run at once (an integer >= 1)`,
    );
  }
  const slots = opts.exported ? 1 : parallel;
  const until = opts.until === undefined ? Infinity : rank(opts.until);
  const from = opts.from === undefined ? Infinity : rank(opts.from);
  // Fingerprints depend on parameters and upstream fingerprints only: all of them
  // up front, so that a bad declaration stops the run before anything runs.
  const fingerprints = new Map<string, string>();
  for (const spec of specs) {
    for (const d of spec.deps) {
      if (!fingerprints.has(d)) {
        throw new RangeError(
          `Stage "${spec.id}" depends on "${d}", which is not declared before it`,
        );
      }
    }
    rank(spec.stage);
    fingerprints.set(
      spec.id,
      await stageFingerprint(
        spec.id,
        spec.version,
        spec.params,
        spec.deps.map((d) => fingerprints.get(d)!),
      ),
    );
  }
  const recorded = await readStageRuns(ws);
  const changed = new Set<string>();
  const say = (e: StageEvent) => opts.onEvent?.(e);
  const waiting = new Set<string>(); // exported requests, or behind one that did
  const outcome = new Map<string, "ran" | "fresh" | "stopped">();
  const incompletes = new Map<string, IncompleteStage>();

  const decide = (spec: StageSpec): Decision => {
    const fp = fingerprints.get(spec.id)!;
    const r = rank(spec.stage);
    if (r > until) return { state: "stopped", message: `not started (--until ${opts.until})` };
    const waitsFor = spec.deps.filter((d) => waiting.has(d));
    if (waitsFor.length) {
      waiting.add(spec.id);
      return {
        state: "stopped",
        message: `not started: waits for the exported requests of ${waitsFor.join(", ")}`,
      };
    }
    const before = recorded.get(spec.id);
    // An upstream instance that ran again with the same fingerprint (it was
    // incomplete) may have changed what this one reads: not fresh either.
    const upstream = spec.deps.filter((d) => changed.has(d));
    if (before?.fingerprint === fp && r < from && !upstream.length) return { state: "fresh" };
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
    return { state: "run", why };
  };

  /**
   * Runs one instance on `target` and records it in `ws`'s memo. Everything it
   * does, down its asynchronous calls, knows its id ({@linkcode currentStage}).
   */
  const execute = (spec: StageSpec, target: Workspace): Promise<void> =>
    runningStage.run(spec.id, () => runAndRecord(spec, target));
  const runAndRecord = async (spec: StageSpec, target: Workspace): Promise<void> => {
    const fp = fingerprints.get(spec.id)!;
    await spec.clear?.(target); // rows of an earlier run of this stage (or of an older workspace)
    const exportedBefore = opts.exported?.() ?? 0;
    const out = await spec.run(target);
    if ((opts.exported?.() ?? 0) > exportedBefore) waiting.add(spec.id);
    const result: StageOutcome = typeof out === "string" ? { summary: out } : out;
    const failed = result.failed ?? 0;
    const unparsed = result.unparsed ?? 0;
    const incomplete = failed + unparsed > 0;
    await recordStageRun(ws, {
      id: spec.id,
      stage: spec.stage,
      fingerprint: incomplete ? INCOMPLETE + fp : fp,
      params: canonicalJson(spec.params),
      summary: result.summary,
    });
    changed.add(spec.id);
    outcome.set(spec.id, "ran");
    if (incomplete) {
      incompletes.set(spec.id, {
        id: spec.id,
        stage: spec.stage,
        items: Math.max(result.items ?? 0, failed + unparsed),
        failed,
        unparsed,
      });
    }
    say({
      id: spec.id,
      stage: spec.stage,
      state: incomplete ? "incomplete" : "ran",
      message: result.summary,
    });
  };

  const pending = [...specs];
  const running = new Map<string, Promise<void>>();
  let failure: { error: unknown } | undefined;
  // Instances that met a write conflict with one running beside them: run again, alone.
  const again: StageSpec[] = [];
  const retried = new Set<string>();
  const done = (id: string) => outcome.has(id);
  const start = (spec: StageSpec, why: string) => {
    say({ id: spec.id, stage: spec.stage, state: "ran", message: why, starting: true });
    const work = slots === 1 ? execute(spec, ws) : ws.fork().then(async (fork) => {
      try {
        await execute(spec, fork);
      } finally {
        fork.close();
      }
    });
    running.set(
      spec.id,
      work.catch((error) => {
        if (slots > 1 && !retried.has(spec.id) && writeConflict(error)) {
          retried.add(spec.id);
          again.push(spec);
        } else failure ??= { error };
      }).finally(() => running.delete(spec.id)),
    );
  };
  for (;;) {
    if (again.length && !failure) {
      if (running.size) {
        await Promise.race(running.values());
        continue;
      }
      const spec = again.shift()!;
      start(spec, "again, alone: a stage running beside it wrote the same rows");
      await running.get(spec.id);
      continue;
    }
    // Settle or start every instance whose upstream is done, in list order.
    for (let k = 0; k < pending.length && !failure && !again.length;) {
      const spec = pending[k];
      if (!spec.deps.every(done)) {
        k++;
        continue;
      }
      const decision = decide(spec);
      if (decision.state === "run" && running.size >= slots) break; // waits for a slot
      pending.splice(k, 1);
      if (decision.state !== "run") {
        outcome.set(spec.id, decision.state);
        say({
          id: spec.id,
          stage: spec.stage,
          state: decision.state,
          message: decision.state === "fresh" ? "up to date" : decision.message,
        });
        k = 0; // a settled instance may make earlier ones ready
        continue;
      }
      start(spec, decision.why);
      if (slots === 1) await running.get(spec.id);
      k = 0;
    }
    if (running.size === 0 && (!again.length || failure)) break;
    if (running.size) await Promise.race(running.values());
  }
  if (failure) throw failure.error;
  const listed = (state: "ran" | "fresh" | "stopped") =>
    specs.filter((s) => outcome.get(s.id) === state).map((s) => s.id);
  return {
    ran: listed("ran"),
    fresh: listed("fresh"),
    stopped: listed("stopped"),
    incomplete: specs.filter((s) => incompletes.has(s.id)).map((s) => incompletes.get(s.id)!),
  };
}

/**
 * Whether DuckDB refused a write that may have met rows another connection's
 * transaction wrote at the same time (or the same catalog entry). A key a stage
 * inserts twice by itself looks the same: its instance then fails again, alone.
 */
function writeConflict(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  // A key both inserted (INSERT OR IGNORE included): DuckDB reports it at the insert, or
  // at the commit when the other transaction committed first.
  return /write-write conflict|Transaction conflict|Conflict on (?:update|tuple deletion)|PRIMARY KEY or UNIQUE constraint|Duplicate key .* violates (?:primary key|unique) constraint/i
    .test(message);
}
