/**
 * The measure step's values: what the measure table already holds for unchanged
 * inputs is read back, only what is missing is evaluated.
 *
 * @module
 */
import {
  CRUX_DEFAULTS,
  defaultRegistry,
  evaluate,
  type EvaluationResult,
  formatMeasure,
  type Judged,
  type Measure,
  parseMeasure,
  prepareJudged,
  type RunSummary,
  type SkippedTopic,
} from "@lib/metrics/mod.ts";
import { compareBytes } from "@lib/formats/mod.ts";
import {
  clearMemo,
  deleteMeasures,
  meanTopicId,
  MEASURE_STEP_ROWS,
  type MeasureValueRow,
  passageJudge,
  readMeasureInputFingerprints,
  readMeasures,
  readMemo,
  type Workspace,
  writeMemo,
} from "@lib/store/mod.ts";
import {
  evaluateAvailable,
  type RelevanceSource,
  storeMeasures,
  workspaceJudged,
} from "@lib/pipeline/mod.ts";

/** Options of {@linkcode measureValues}. */
export interface MeasureValuesOptions {
  /** Judge of the passage ratings. Default: the only judge that rated passages. */
  judge?: string;
  /** Where P, R, AP, nDCG and alpha-nDCG take relevance from. Default `selection`. */
  source?: RelevanceSource;
  /** Answerability threshold (as `evaluate`'s `tau`). Default 3. */
  tau?: number;
  /**
   * A density measure needing a passage without a token count: `error` (default)
   * throws `MissingTokensError`; `skip` leaves every density measure out of
   * the result, as {@linkcode evaluateAvailable} does, stores nothing for the ones
   * it could not evaluate (so they are tried again next time) and tells `onNote`.
   */
  missingTokens?: "error" | "skip";
  /** Notes (density measures left out). */
  onNote?: (message: string) => void;
}

/** What happened to one run's measures in {@linkcode measureValues}. */
export interface MeasureValuesRun {
  run: string;
  /** Measure keys read back from the measure table. */
  reused: string[];
  /** Measure keys evaluated and stored. */
  computed: string[];
  /**
   * Measure keys left out of the result: with `missingTokens: "skip"`, every density
   * key when some run's density needed a passage without a token count.
   */
  leftOut: string[];
  /**
   * The run's inputs against the recorded fingerprint: `unchanged` (stored values
   * were usable), `changed` (the run's stored values of this judge were discarded)
   * or `new` (no fingerprint was recorded).
   */
  inputs: "unchanged" | "changed" | "new";
  /** When the current fingerprint was recorded (now, for `changed` and `new`). */
  since: Date;
}

/** Result of {@linkcode measureValues}. */
export interface MeasureValuesResult {
  /** Exactly what `evaluate` (or `evaluateAvailable` with `missingTokens: "skip"`) returns for the runs' rows. */
  result: EvaluationResult;
  /** The judge of the passage ratings. */
  judge: string;
  /** The relevance source. */
  source: RelevanceSource;
  /**
   * The `source` column of the stored rows: `selection`, or `judgments` with the
   * tau when it is not 3 (`judgments(tau=4)`), since relevance derived from ratings
   * depends on it.
   */
  label: string;
  /** Measure keys read back, summed over the runs. */
  reused: number;
  /** Measure keys evaluated and stored, summed over the runs. */
  computed: number;
  /** Per run, in result order. */
  runs: MeasureValuesRun[];
}

/**
 * Changes when what the fingerprint covers changes, so old fingerprints never
 * match; v2: stored rows state their topic set (rows of v1 have none).
 */
const FINGERPRINT_VERSION = "measure-inputs-v2";

/** The memo key (kind `measure`) of a run and passage judge: `["<run>","<judge>"]`. */
const memoKey = (run: string, judge: string) => JSON.stringify([run, judge]);

/**
 * Deletes a run's stored values of the measure step (every judge and source; the
 * answer-level rows of report judging stay), and with them what made them
 * reusable: the recorded fingerprints and run summaries.
 *
 * @param ws The workspace.
 * @param run The run.
 * @example
 * ```ts
 * import { clearMeasureValues } from "@lib/methods/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await clearMeasureValues(ws, "bm25");
 * ```
 */
export async function clearMeasureValues(ws: Workspace, run: string): Promise<void> {
  await deleteMeasures(ws, { ...MEASURE_STEP_ROWS, run });
  // Every judge's record: keys `["<run>",` followed by the judge.
  await clearMemo(ws, "measure", { keyPrefix: `${JSON.stringify([run]).slice(0, -1)},` });
}

/**
 * Deletes a run's means (topic `all`) of the measure step by one judge, and the
 * memo that would reuse them: for a run whose topic set is not complete yet
 * (topics left out for failed ratings), a mean over the other topics is not kept.
 *
 * @param ws The workspace.
 * @param run The run.
 * @param judge The passage judge.
 * @example
 * ```ts
 * import { clearRunMeans } from "@lib/methods/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await clearRunMeans(ws, "bm25", "llm:judge-model");
 * ```
 */
export async function clearRunMeans(ws: Workspace, run: string, judge: string): Promise<void> {
  await deleteMeasures(ws, { ...MEASURE_STEP_ROWS, run, judge, means: true });
  await clearMemo(ws, "measure", { key: memoKey(run, judge) });
}

/** The run-level part of an evaluation, for one relevance source. */
interface StoredRun {
  topics: number;
  duplicates: number;
  unjudgedTopics: string[];
  /** Documents retrieved per evaluated topic (for judged@k notes). */
  retrieved?: Record<string, number>;
}

/** One stored measure key: how it was computed and which topics it left out (and why). */
interface StoredKey {
  source: RelevanceSource;
  tau: number;
  /** Topics averaged (0: the aggregate is NaN and no row is stored). */
  count: number;
  /** Topic -> reason, in topic order. */
  skipped: [string, string][];
}

/**
 * What the measure table cannot hold, per run and judge (the payload of its memo record): the
 * evaluation's run summary and, per stored key, the topics left out with their
 * reasons, so a reused result equals a fresh one field by field.
 */
interface StoredSummary {
  fingerprint: string;
  unparseableRatings: number;
  runs: Partial<Record<RelevanceSource, StoredRun>>;
  /** Stored source label -> key -> entry. */
  keys: Record<string, Record<string, StoredKey>>;
}

type StoredRow = MeasureValueRow<number>;

/** One run's plan: what is stored, what must be evaluated. */
interface RunPlan {
  run: string;
  fingerprint: string;
  inputs: "unchanged" | "changed" | "new";
  since: Date;
  summary: StoredSummary;
  reused: string[];
  missing: string[];
  rows: StoredRow[];
}

/**
 * Measures runs stored in the workspace, reusing what the measure table already
 * holds. Per run and judge, a fingerprint of the inputs (the run's rows in `runs`,
 * the judge's passage ratings, the sub-questions, the selection's `crux_pr` and
 * `crux_div` qrels and every passage's token count) is computed in SQL and
 * compared with the one recorded in the memo (kind `measure`, key `["run","judge"]`):
 *
 * - unchanged: every requested measure key stored for the run, judge and source
 *   (every key under {@linkcode MeasureValuesResult.label}: relevance measures take
 *   relevance from the source, Cov and Den their P*) is read back; only missing keys
 *   are evaluated and stored. Rows under `selection` are reused only when computed
 *   with the same tau.
 * - changed or absent: the run's rows of methods `trec` and `crux` by the judge
 *   (answer-level sources `report` and `context` excepted) are deleted, every key is
 *   evaluated and stored, and the new fingerprint is recorded.
 *
 * The result is what `evaluate` returns for the runs' rows (per-topic rows,
 * aggregates, run summaries, skipped topics with reasons, key order as requested),
 * so `formatEvaluation` prints the same bytes either way; a run named twice counts
 * once, a run without rows is left out. Values the table cannot hold (NaN or
 * infinite) are evaluated again. The run summaries and skipped topics, which the
 * measure table has no columns for, are the payload of the same memo record.
 * Writes happen in one transaction after every
 * evaluation succeeded.
 *
 * @param ws The workspace.
 * @param runs Run names (rows in `runs`).
 * @param measures Measure strings or parsed measures, as for `evaluate`.
 * @param opts Judge, relevance source, tau, and what to do about missing token counts.
 * @returns The evaluation, judge, source, stored source label and what was reused and computed.
 * @throws {MissingTokensError} When a density measure to evaluate needs a passage without a token count and `missingTokens` is not `skip`.
 * @throws {RangeError} When several judges rated passages and none is named, or the named one rated none.
 * @example
 * ```ts
 * import { measureValues } from "@lib/methods/mod.ts";
 * import { formatEvaluation } from "@lib/metrics/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const first = await measureValues(ws, ["bm25"], ["P@10", "Cov@10"]);
 * first.computed; // 2
 * const again = await measureValues(ws, ["bm25"], ["P@10", "Cov@10", "Den@oracle"]);
 * again.reused; // 2: only Den@oracle was evaluated
 * formatEvaluation(again.result, "json");
 * ```
 */
export async function measureValues(
  ws: Workspace,
  runs: readonly string[],
  measures: readonly (string | Measure)[],
  opts: MeasureValuesOptions = {},
): Promise<MeasureValuesResult> {
  const source = opts.source ?? "selection";
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const label = source === "judgments" && tau !== CRUX_DEFAULTS.tau
    ? `judgments(tau=${tau})`
    : source;
  const judge = await passageJudge(ws, "evaluate passage contexts", opts.judge);
  const registry = defaultRegistry();
  const keys = [
    ...new Set(
      measures.map((m) =>
        formatMeasure(typeof m === "string" ? parseMeasure(m, { registry }) : m, {
          registry,
          defaults: { rel: undefined, tau },
        })
      ),
    ),
  ];
  // Every key is stored under the source label: relevance measures take relevance from
  // it, and Cov and Den their P* (Den and @oracle cutoffs differ between sources).
  const names = [...new Set(runs)];
  const fingerprints = await inputFingerprints(ws, names, judge);
  const plans: RunPlan[] = [];
  for (const run of names) {
    const fingerprint = fingerprints.get(run);
    if (fingerprint === undefined) continue; // no rows: evaluate leaves the run out
    plans.push(await planRun(ws, run, judge, fingerprint, keys, source, tau, label));
  }

  // Evaluate what is missing (nothing is written until every run succeeded).
  let judged: Judged | undefined;
  const computed = new Map<string, { result: EvaluationResult; kept: string[] }>();
  let leftOut: string | undefined;
  for (const p of plans) {
    if (p.missing.length === 0 && p.summary.runs[source]) continue;
    judged ??= prepareJudged((await workspaceJudged(ws, { source, judge })).inputs, { tau });
    const rows = await ws.runRows(p.run);
    const ev = opts.missingTokens === "skip"
      ? evaluateAvailable(rows, p.missing, judged, { tau })
      : { result: evaluate(rows, p.missing, judged, { tau }), kept: p.missing, leftOut: undefined };
    if (ev.result.measures.join("\n") !== ev.kept.join("\n")) {
      throw new Error(
        `Internal error: evaluating ${ev.kept.join(", ")} gave keys ${
          ev.result.measures.join(", ")
        }`,
      );
    }
    leftOut ??= ev.leftOut;
    computed.set(p.run, { result: ev.result, kept: ev.kept });
  }
  // As evaluateAvailable over every run: density left out for one run is left out for all.
  const dropped = leftOut === undefined
    ? new Set<string>()
    : new Set(keys.filter((k) => parseMeasure(k).name === "Den"));
  if (leftOut !== undefined) {
    opts.onNote?.(
      `${[...dropped].join(", ")} not measured for ${runs.join(", ")}: ${leftOut}`,
    );
  }

  if (computed.size) {
    await ws.transaction(async () => {
      for (const p of plans) {
        const c = computed.get(p.run);
        if (c) await storeRun(ws, p, c.result, c.kept, { judge, source, tau, label });
      }
    });
  }

  const finalKeys = keys.filter((k) => !dropped.has(k));
  const result: EvaluationResult = {
    measures: finalKeys,
    runs: [],
    perTopic: [],
    aggregates: [],
    skipped: [],
    unparseableRatings: 0,
  };
  const report: MeasureValuesRun[] = [];
  for (const p of plans) {
    const c = computed.get(p.run);
    assembleRun(result, p, c?.result, finalKeys, label, source);
    result.unparseableRatings = c?.result.unparseableRatings ?? p.summary.unparseableRatings;
    const kept = new Set(c?.kept ?? []);
    report.push({
      run: p.run,
      reused: p.reused.filter((k) => !dropped.has(k)),
      computed: p.missing.filter((k) => kept.has(k)),
      leftOut: keys.filter((k) => dropped.has(k)),
      inputs: p.inputs,
      since: p.since,
    });
  }
  if (plans.length === 0) {
    // No run has rows: what evaluate says about the judgments alone.
    judged = prepareJudged((await workspaceJudged(ws, { source, judge })).inputs, { tau });
    result.unparseableRatings = evaluate([], keys, judged, { tau }).unparseableRatings;
  }
  return {
    result,
    judge,
    source,
    label,
    reused: report.reduce((n, r) => n + r.reused.length, 0),
    computed: report.reduce((n, r) => n + r.computed.length, 0),
    runs: report,
  };
}

/**
 * The fingerprint of each run's inputs with one judge's ratings, for runs with
 * rows (see `readMeasureInputFingerprints`).
 */
function inputFingerprints(
  ws: Workspace,
  runs: readonly string[],
  judge: string,
): Promise<Map<string, string>> {
  return readMeasureInputFingerprints(ws, runs, judge, FINGERPRINT_VERSION);
}

/** Reads what is stored for one run and decides which keys are reused. */
async function planRun(
  ws: Workspace,
  run: string,
  judge: string,
  fingerprint: string,
  keys: readonly string[],
  source: RelevanceSource,
  tau: number,
  label: string,
): Promise<RunPlan> {
  const memo = (await readMemo<StoredSummary>(ws, "measure", { key: memoKey(run, judge) }))
    .get(memoKey(run, judge));
  const recorded = memo?.fingerprint
    ? { fingerprint: memo.fingerprint, computedAt: memo.recordedAt }
    : undefined;
  const fresh: StoredSummary = { fingerprint, unparseableRatings: 0, runs: {}, keys: {} };
  if (recorded?.fingerprint !== fingerprint) {
    return {
      run,
      fingerprint,
      inputs: recorded ? "changed" : "new",
      since: new Date(),
      summary: fresh,
      reused: [],
      missing: [...keys],
      rows: [],
    };
  }
  const parsed = memo?.payload;
  const summary = parsed?.fingerprint === fingerprint ? parsed : fresh;
  const rows = summary.runs[source]
    ? await readMeasures(ws, {
      ...MEASURE_STEP_ROWS,
      run,
      judge,
      source: label,
      hasValue: true,
    })
    : [];
  const perTopic = new Map<string, number>();
  const aggregate = new Map<string, StoredRow>();
  for (const r of rows) {
    if (r.topicId === "all") aggregate.set(r.measure, r);
    else if (!meanTopicId.is(r.topicId)) {
      perTopic.set(r.measure, (perTopic.get(r.measure) ?? 0) + 1);
    }
  }
  const usable = (key: string) => {
    const e = summary.keys[label]?.[key];
    if (!summary.runs[source] || !e || e.source !== source) return false;
    if (e.tau !== tau) return false;
    const agg = aggregate.get(key);
    if (e.count === 0) return agg === undefined && !perTopic.has(key);
    return agg !== undefined && agg.topics === e.count && perTopic.get(key) === e.count;
  };
  return {
    run,
    fingerprint,
    inputs: "unchanged",
    since: recorded.computedAt,
    summary,
    reused: keys.filter(usable),
    missing: keys.filter((k) => !usable(k)),
    rows,
  };
}

/** Writes one run's evaluated keys, its summary and (when new) its fingerprint. */
async function storeRun(
  ws: Workspace,
  p: RunPlan,
  result: EvaluationResult,
  kept: readonly string[],
  ctx: {
    judge: string;
    source: RelevanceSource;
    tau: number;
    label: string;
  },
): Promise<void> {
  const { judge, source, tau, label } = ctx;
  if (p.inputs !== "unchanged") {
    await deleteMeasures(ws, { ...MEASURE_STEP_ROWS, run: p.run, judge });
  } else if (kept.length) {
    // Rows of the keys about to be stored, including topics the new values leave out.
    await deleteMeasures(ws, {
      ...MEASURE_STEP_ROWS,
      run: p.run,
      judge,
      source: label,
      measure: kept,
    });
  }
  await storeMeasures(ws, result, { judge, source: label });
  const summary = p.summary;
  const r = result.runs[0];
  summary.unparseableRatings = result.unparseableRatings;
  summary.runs[source] = {
    topics: r.topics,
    duplicates: r.duplicates,
    unjudgedTopics: r.unjudgedTopics,
    ...(r.retrieved ? { retrieved: r.retrieved } : {}),
  };
  for (const key of kept) {
    (summary.keys[label] ??= {})[key] = {
      source,
      tau,
      count: r.counts[key],
      skipped: result.skipped.filter((s) => s.measure === key).map((s) => [s.topicId, s.reason]),
    };
  }
  // New or changed inputs record their fingerprint; unchanged ones keep it and its time.
  await writeMemo(ws, {
    kind: "measure",
    key: memoKey(p.run, judge),
    payload: summary,
    ...(p.inputs !== "unchanged" ? { fingerprint: p.fingerprint, recordedAt: p.since } : {}),
  });
}

/** Appends one run to `result` as `evaluate` orders it: topics in byte order, keys as requested. */
function assembleRun(
  result: EvaluationResult,
  p: RunPlan,
  computed: EvaluationResult | undefined,
  keys: readonly string[],
  label: string,
  source: RelevanceSource,
): void {
  const values = new Map<string, Map<string, number>>();
  const skipped = new Map<string, Map<string, string>>();
  const aggregate = new Map<string, number>();
  const counts = new Map<string, number>();
  const topics = new Set<string>();
  const reused = new Set(p.reused);
  for (const k of keys) {
    values.set(k, new Map());
    skipped.set(k, new Map());
  }
  for (const r of p.rows) {
    const key = r.measure;
    if (!reused.has(key)) continue;
    if (r.topicId === "all") aggregate.set(key, r.value);
    else if (!meanTopicId.is(r.topicId)) {
      values.get(key)!.set(r.topicId, r.value);
      topics.add(r.topicId);
    }
  }
  for (const key of p.reused) {
    const e = p.summary.keys[label][key];
    counts.set(key, e.count);
    if (e.count === 0) aggregate.set(key, NaN);
    for (const [topicId, reason] of e.skipped) {
      skipped.get(key)?.set(topicId, reason);
      topics.add(topicId);
    }
  }
  let summary: StoredRun = p.summary.runs[source]!;
  if (computed) {
    const r = computed.runs[0];
    summary = r;
    for (const row of computed.perTopic) {
      values.get(row.measure)?.set(row.topicId, row.value);
      topics.add(row.topicId);
    }
    for (const s of computed.skipped) {
      skipped.get(s.measure)?.set(s.topicId, s.reason);
      topics.add(s.topicId);
    }
    for (const k of computed.measures) {
      aggregate.set(k, r.aggregate[k]);
      counts.set(k, r.counts[k]);
    }
  }
  const run = p.run;
  for (const topicId of [...topics].sort(compareBytes)) {
    for (const measure of keys) {
      const reason = skipped.get(measure)!.get(topicId);
      if (reason !== undefined) {
        result.skipped.push({ run, topicId, measure, reason } satisfies SkippedTopic);
      }
      const value = values.get(measure)!.get(topicId);
      if (value !== undefined) result.perTopic.push({ run, topicId, measure, value });
    }
  }
  const out: RunSummary = {
    run,
    topics: summary.topics,
    aggregate: {},
    counts: {},
    duplicates: summary.duplicates,
    unjudgedTopics: [...summary.unjudgedTopics],
    ...(summary.retrieved ? { retrieved: { ...summary.retrieved } } : {}),
  };
  for (const measure of keys) {
    const value = aggregate.get(measure)!;
    out.aggregate[measure] = value;
    out.counts[measure] = counts.get(measure)!;
    result.aggregates.push({ run, topicId: "all", measure, value });
  }
  result.runs.push(out);
}
