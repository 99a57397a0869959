/**
 * Evaluating retrieval contexts of a run at several cutoffs, with the oracle
 * context P* and an empty context as the upper and lower references.
 *
 * @module
 */
import {
  CRUX_DEFAULTS,
  evaluate,
  formatMeasure,
  oracleSets,
  prepareJudged,
} from "@lib/metrics/mod.ts";
import type { MetricRow, RunRow } from "@lib/types/mod.ts";
import {
  meanTopicId,
  readContextSkips,
  readMeasures,
  type StoredMeasure,
  type Workspace,
} from "@lib/store/mod.ts";
import {
  type ContextKey,
  contextMeasure,
  contextSource,
  ORACLE_CONTEXT,
  workspaceJudged,
} from "@lib/pipeline/mod.ts";
import type { CellSource } from "./types.ts";

/** One evaluated condition: a run cut at a depth, or a reference context. */
export interface ContextCondition {
  /** Row label, e.g. `bm25 top-10`. */
  label: string;
  /** `run` (a ranking cut at `cutoff`), `oracle` (P*) or `empty`. */
  kind: "run" | "oracle" | "empty";
  /** Depth: a number or `oracle` (= |P*| of each topic). */
  cutoff: number | "oracle";
}

/** Options of {@linkcode evaluateContexts}. */
export interface EvaluateContextsOptions {
  /** Runs to evaluate. Default `["bm25"]`. */
  runs?: string[];
  /** Cutoffs applied to every run. Default `[10, "oracle"]`. */
  cutoffs?: (number | "oracle")[];
  /** Add the oracle context P* and the empty context. Default true. */
  references?: boolean;
  /** Answerability threshold. Default 3. */
  tau?: number;
  /** Density exponent w. Default 0.5 (the CRUX paper's tables). */
  w?: number;
  /** Judge whose ratings are used. Default `human`. */
  judge?: string;
  /** Tokenizer of the density measure. Default `llama3.1`. */
  tokenizer?: "llama3.1" | "whitespace";
}

/** Result of {@linkcode evaluateContexts}. */
export interface ContextEvaluationResult {
  conditions: ContextCondition[];
  /** Generic column names, in table order. */
  measures: string[];
  /** Per-topic rows: `run` = condition label, `measure` = generic column name. */
  perTopic: MetricRow[];
  /** Mean rows (`topicId` = `all`). */
  means: MetricRow[];
  /** Number of topics averaged per condition and measure (`label|measure` -> n). */
  topicCounts: Record<string, number>;
  /** Topics left out (e.g. no answerable sub-question), with reasons. */
  skipped: string[];
  /** Unparseable (-1) ratings, counted as 0. */
  unparseableRatings: number;
  /** Conditions the measure step stored no values for (labels): blank, never evaluated here. */
  computed: string[];
  tokenizer: string;
  /** Where each mean cell comes from (row = condition label, column = generic measure). */
  cells: CellSource[];
}

/** Generic column -> measure string at a cutoff. */
function measuresAt(cutoff: number | "oracle", tau: number, w: number): Record<string, string> {
  const at = `@${cutoff}`;
  return {
    "Cov": formatMeasure({ name: "Cov", params: { tau }, cutoff }),
    "α-nDCG": `alpha_nDCG${at}`,
    "Den": formatMeasure({ name: "Den", params: { tau, w }, cutoff }),
    "P": `P(rel=3)${at}`,
    "nDCG": `nDCG${at}`,
    "RPrec": "RPrec(rel=3)",
  };
}

/**
 * Evaluates the contexts a run gives (its top-k passages) with the CRUX
 * measures (Cov, alpha-nDCG over sub-questions, Den) and the classic ones (P and
 * RPrec over required passages, nDCG over the 3/2/1 grades), at each cutoff;
 * plus the oracle context P* (Den = 1 by construction) and an empty context
 * (every measure 0). Judgments are the workspace's ratings and `crux_pr` qrels.
 *
 * @param ws The workspace (with ratings and `crux_pr` qrels).
 * @param opts See {@linkcode EvaluateContextsOptions}.
 * @returns Per-topic and mean rows keyed by condition label and generic measure name.
 * @throws {RangeError} When a run is missing from the workspace.
 * @example
 * ```ts
 * import { evaluateContexts } from "@lib/analysis/mod.ts";
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // P*, and the topics to retrieve for
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * const r = await evaluateContexts(ws, { runs: ["bm25"] });
 * r.means.find((m) => m.run === "bm25 top-10" && m.measure === "Cov")?.value;
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function evaluateContexts(
  ws: Workspace,
  opts: EvaluateContextsOptions = {},
): Promise<ContextEvaluationResult> {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const tokenizer = opts.tokenizer ?? "llama3.1";
  // One definition of the judged inputs (pipeline's workspaceJudged): passage
  // ratings, the selection's qrels and the stored token counts. alpha-nDCG takes
  // its subtopics from the ratings at this tau.
  const { inputs: judged, judge } = await workspaceJudged(ws, {
    judge: opts.judge,
    source: "selection",
  });
  const { diversityQrels: _, ...inputs } = judged;
  // P* in the order the analyses read it (the oracle context is a ranking, and
  // alpha-nDCG depends on its order).
  const qrels = await ws.qrels("crux_pr");
  const conditions: ContextCondition[] = [];
  const runOf = new Map<string, string>();
  const runs: { condition: ContextCondition; rows: RunRow[] }[] = [];
  for (const run of opts.runs ?? ["bm25"]) {
    const rows = await ws.runRows(run);
    if (rows.length === 0) throw new RangeError(`The workspace has no run named "${run}"`);
    for (const cutoff of opts.cutoffs ?? CRUX_DEFAULTS.evaluationCutoffs) {
      const label = `${run} top-${cutoff === "oracle" ? "|P*|" : cutoff}`;
      const condition: ContextCondition = { label, kind: "run", cutoff };
      conditions.push(condition);
      runs.push({ condition, rows: rows.map((r) => ({ ...r, run: label })) });
      runOf.set(label, run);
    }
  }
  if (opts.references ?? true) {
    const oracle: ContextCondition = {
      label: "oracle context P*",
      kind: "oracle",
      cutoff: "oracle",
    };
    const oracleRows = [...oracleSets(qrels)].flatMap(([topicId, ids]) =>
      ids.map((docId, i) => ({ run: oracle.label, topicId, docId, rank: i + 1, score: -i }))
    );
    const empty: ContextCondition = { label: "empty context", kind: "empty", cutoff: "oracle" };
    conditions.push(oracle, empty);
    runs.push({ condition: oracle, rows: oracleRows });
    runs.push({ condition: empty, rows: [] });
  }
  const generic = Object.keys(measuresAt(10, tau, w));
  const result: ContextEvaluationResult = {
    conditions,
    measures: generic,
    perTopic: [],
    means: [],
    topicCounts: {},
    skipped: [],
    unparseableRatings: 0,
    computed: [],
    tokenizer,
    cells: [],
  };
  // What the measure step stored for these contexts (source ranking(tau), this judge)
  // is shown; a context it did not measure is blank, and said so.
  const storedRows: StoredMeasure[] = (await readMeasures(ws, {
    method: ["crux", "trec"],
    judge,
    hasValue: true,
  }, ["run", "source", "measure", "topicId"]))
    .map((r) => ({ ...r, value: Number(r.value) }));
  const source = contextSource("ranking", tau);
  result.unparseableRatings = evaluate([], [], prepareJudged(inputs, { tau }), { tau })
    .unparseableRatings;
  for (const { condition } of runs) {
    const label = condition.label;
    const run = condition.kind === "oracle" ? ORACLE_CONTEXT : runOf.get(label);
    if (condition.kind !== "empty" && run !== undefined) {
      const read = await readStored(ws, storedRows, { run, judge, source, condition, w });
      if (read) {
        result.perTopic.push(...read.perTopic);
        result.means.push(...read.means);
        Object.assign(result.topicCounts, read.topicCounts);
        result.skipped.push(...read.skipped);
        result.cells.push(...read.cells);
      } else {
        result.computed.push(label);
        for (const g of generic) {
          result.cells.push({ row: label, column: g, reason: "not stored by the measure step" });
        }
      }
      // Nothing is evaluated here: a context the measure stage did not store is blank.
      continue;
    }
    if (condition.kind === "empty") {
      // An empty context retrieves nothing: every measure is 0 by definition, on the
      // topics the stored conditions average.
      const topics = new Set(result.perTopic.map((r) => r.topicId));
      if (!topics.size) continue;
      for (const g of generic) {
        for (const topicId of topics) {
          result.perTopic.push({ run: label, topicId, measure: g, value: 0 });
        }
        result.means.push({ run: label, topicId: "all", measure: g, value: 0 });
        result.topicCounts[`${label}|${g}`] = topics.size;
        result.cells.push({ row: label, column: g, derived: "0 by definition (empty context)" });
      }
    }
  }
  return result;
}

/** Generic column -> context key of the measure step (RPrec has no cutoff). */
const GENERIC: Record<string, ContextKey | "rprec"> = {
  "Cov": "covZ",
  "α-nDCG": "andcg",
  "Den": "denZ",
  "P": "precision",
  "nDCG": "ndcg",
  "RPrec": "rprec",
};

/**
 * One condition's values as the measure step stored them, or undefined when it
 * stored none (no Cov row of the run at the cutoff).
 */
async function readStored(
  ws: Workspace,
  rows: readonly StoredMeasure[],
  c: {
    run: string;
    judge: string;
    source: string;
    condition: ContextCondition;
    w: number;
  },
): Promise<
  | Pick<ContextEvaluationResult, "perTopic" | "means" | "topicCounts" | "skipped" | "cells">
  | undefined
> {
  const label = c.condition.label;
  const keyOf = (g: string) => {
    const k = GENERIC[g];
    return k === "rprec" ? "RPrec(rel=3)" : contextMeasure(k, c.condition.cutoff, c.w);
  };
  const mine = rows.filter((r) => r.run === c.run && r.source === c.source);
  if (!mine.some((r) => r.measure === keyOf("Cov"))) return undefined;
  const out = {
    perTopic: [] as MetricRow[],
    means: [] as MetricRow[],
    topicCounts: {} as Record<string, number>,
    skipped: [] as string[],
    cells: [] as CellSource[],
  };
  const stored = (measure: string, topicId: string) => ({
    run: c.run,
    source: c.source,
    judge: c.judge,
    measure,
    topicId,
  });
  const generic = new Map(Object.keys(GENERIC).map((g) => [keyOf(g), g]));
  for (const r of mine) {
    const g = generic.get(r.measure);
    if (g === undefined) continue;
    if (meanTopicId.dataset(r.topicId) !== undefined) continue;
    if (r.topicId === "all") {
      out.means.push({ run: label, topicId: "all", measure: g, value: r.value });
      out.topicCounts[`${label}|${g}`] = r.topics ?? 0;
      out.cells.push({ row: label, column: g, key: stored(r.measure, "all") });
    } else out.perTopic.push({ run: label, topicId: r.topicId, measure: g, value: r.value });
  }
  // Topics in byte order, measures in column order, as the evaluator gives them.
  const order = Object.keys(GENERIC);
  out.perTopic.sort((a, b) =>
    a.topicId < b.topicId
      ? -1
      : a.topicId > b.topicId
      ? 1
      : order.indexOf(a.measure) - order.indexOf(b.measure)
  );
  // No stored mean: the measure step keeps none over an incomplete topic set (some
  // topics' ratings failed or are missing), so the cell is blank with its reason;
  // a mean over the topics that happen to have a value is never shown.
  for (const g of order) {
    if (out.means.some((m) => m.measure === g)) continue;
    const xs = out.perTopic.filter((r) => r.measure === g);
    if (xs.length) {
      out.cells.push({
        row: label,
        column: g,
        reason: `no stored run mean of ${g}: the measure step keeps none over an incomplete ` +
          `topic set (${xs.length} topic(s) have a value)`,
      });
      out.skipped.push(
        `${label}: ${g} left blank: no run mean was stored (only ${xs.length} topic(s) have a value)`,
      );
    } else {
      out.cells.push({ row: label, column: g, reason: `${g} not stored for this context` });
      if (g === "Den") {
        out.skipped.push(
          `${label}: Den not measured (a passage of the context has no token count)`,
        );
      }
    }
  }
  out.means.sort((a, b) => order.indexOf(a.measure) - order.indexOf(b.measure));
  for (
    const [topicId, measure, reason] of await readContextSkips(ws, c.run, c.judge, c.source) ?? []
  ) {
    const g = generic.get(measure);
    if (g !== undefined) out.skipped.push(`${label}: ${topicId} ${g}: ${reason}`);
  }
  return out;
}
