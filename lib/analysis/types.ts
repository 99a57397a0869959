/**
 * Types shared by the CRUX analyses: the workspace data they read, the
 * conditions they compare and the result every analysis returns.
 *
 * @module
 */
import type { ItemRatings } from "@lib/metrics/mod.ts";
import type { Backends, Palette, Table, VegaLiteSpec } from "@lib/report/mod.ts";
import type { Generation, Qrel, RunRow } from "@lib/types/mod.ts";
import type { StoredMeasure, StoredStatistic } from "@lib/store/mod.ts";
import type { StatisticRequest } from "./compute_statistics.ts";

/** A topic and the dataset it belongs to (the topic's `source`, e.g. `sample`, `duc04`). */
export interface AnalysisTopic {
  topicId: string;
  dataset: string;
}

/**
 * Everything the analyses need, read once from a workspace by `loadCruxData`
 * (or built by hand in tests). Plain data: the analyses are pure functions of it.
 */
export interface CruxData {
  /** Topics in id order. */
  topics: readonly AnalysisTopic[];
  /** Topic id -> its sub-question ids in ordinal order. */
  questions: ReadonlyMap<string, readonly string[]>;
  /** Passage ratings of `passageJudge`, one rating per sub-question in order (-1 = unparseable). */
  passageRatings: readonly ItemRatings[];
  /** Passage qrels defining P* (grade 3 = required; CRUX `crux_pr`). */
  qrels: readonly Qrel[];
  /** Passage id -> token count (Llama-3.1 by default). */
  tokens: ReadonlyMap<string, number>;
  /** Retrieval runs by name. */
  runs: ReadonlyMap<string, readonly RunRow[]>;
  /** Generated and reference reports. */
  generations: readonly Generation[];
  /** Report item id (`{topic}:report[:{run}]`) -> question id -> rating by `reportJudge`. */
  reportRatings: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Judge whose passage ratings define A, P* coverage and the context measures. */
  passageJudge: string;
  /** Judge whose report ratings give Cov(y) and Den(y); undefined when no report was judged. */
  reportJudge?: string;
  /** Backends by role, for the "offline backends: ..." label of every table and figure. */
  backends: Backends;
  /**
   * Rows of the measure table by the passage and report judges (see
   * `readMeasures`, methods crux and trec): the tables show these values. Absent in data built by
   * hand, where the tables compute them with the measure step's functions.
   */
  measures?: readonly StoredMeasure[];
  /**
   * The statistics the statistics stage computed from the stored measures (see
   * `computeStatistics`): the tables show these (correlations, means and
   * deviations across pipelines) and never compute them. Absent: every such cell
   * is blank, saying the stage has not computed it.
   */
  statistics?: readonly StoredStatistic[];
  /**
   * Generation runs with reports whose model call failed, by run: the run's
   * recorded condition (`rag`, `direct`, ...) and the failed topics. A run whose
   * reports all failed has no `generations` and still is a condition of the
   * tables, its cells blank with the reason. Absent: none failed.
   */
  failedReports?: ReadonlyMap<string, { condition?: string; topics: readonly string[] }>;
  /**
   * The experiment's figure palette by condition label (see
   * `experimentPalette` in `lib/report`): conditions keep these colours in
   * every figure. Default: assigned from the resolved conditions.
   */
  palette?: Palette;
}

/** What a condition of the comparison is. */
export type ConditionKind = "pipeline" | "direct" | "oracle-context" | "oracle-result";

/**
 * One row of the comparison: a retrieval pipeline (its context and the report
 * generated from it) or a reference (direct prompting, oracle context P*,
 * oracle result = human summary).
 */
export interface Condition {
  /** Name used in data and file rows (the generation run name by default). */
  name: string;
  /** Display label. */
  label: string;
  kind: ConditionKind;
  /** Run name of the condition's reports in `generations`. */
  generation?: string;
  /** Retrieval run in `runs` that produced the context (pipelines only). */
  run?: string;
}

/**
 * The key of a stored `measures` row a cell shows or is computed from: run,
 * source, judge, measure, topic (`all` for a mean), and the row's stated topic
 * set (`topic_set`: `topic(id=...)`, `answerable(tau=3,n=49)`, `judged(n=50)`,
 * `scored(n=10)`, ...; null where the row states none), set from the stored
 * row when the table is saved (see `cellTopicSets`).
 */
export interface CellKey {
  run: string;
  source: string;
  judge: string;
  measure: string;
  topicId: string;
  topicSet?: string | null;
}

/**
 * Where one numeric cell of a table comes from: the key of the stored
 * `measures` row it shows, or why it is blank.
 */
export interface CellSource {
  /** Row label of the table. */
  row: string;
  /** Column key of the table. */
  column: string;
  /** The column's CSV header (`group / label`); set when the cells are saved. */
  header?: string;
  /** The row's position among the table's rows (labels may repeat); set when saved if absent. */
  index?: number;
  /** The column's position among the table's columns (headers may repeat); set when saved. */
  position?: number;
  /** Digits the table prints for the column (default 3); set when the cells are saved. */
  decimals?: number;
  /**
   * The stored row shown (topic `all`: a run mean), when the cell has a value;
   * topic `all:<dataset>` when the workspace holds several datasets: the mean of
   * that dataset's stored per-topic rows under the stored run mean.
   */
  key?: CellKey;
  /**
   * What the cell shows when not the value of its stored row or statistic:
   * `topics`, the number of topics the mean `key` is over; `n`, the number of
   * values (or pairs) the stored statistic `statistic` is over.
   */
  shows?: "topics" | "n";
  /** Why the cell is blank, when it is. */
  reason?: string;
  /**
   * A statistic computed from stored rows rather than a stored row itself
   * (e.g. `mean over pipelines`, `sd`, `Kendall tau-b`), with the keys of its
   * inputs in `inputs`.
   */
  derived?: string;
  /** The stored rows a derived cell is computed from. */
  inputs?: CellKey[];
  /**
   * The stored rows a derived cell is computed from, named as a set when they are
   * too many to list (e.g. the measures of hundreds of sampled contexts): every
   * stored row of `source` by `judge` whose measure is one of `measures`, `count`
   * rows in all.
   */
  inputSet?: { source: string; judge: string; measures: string[]; count: number };
  /** The key of the stored `statistics` row a derived cell shows (see `formatStatisticKey`). */
  statistic?: string;
  /** The stored caveats of the cell's row (see `withStoredCaveats`). */
  caveats?: string[];
}

/** The result of an analysis: data plus its report table and/or figure, ready to display or save. */
export interface Analysis<D = unknown> {
  /** File base name under `tables/` and `figures/`, e.g. `main_table`. */
  name: string;
  /** The numbers behind the table/figure (plain records, JSON-serialisable). */
  data: D;
  table?: Table;
  figure?: VegaLiteSpec;
  /** The stored row (or the reason for a blank) of each numeric cell of `table`. */
  cells?: CellSource[];
  /**
   * The statistics the table shows, with their inputs' stored values: what the
   * statistics stage computes and stores for it to read.
   */
  statistics?: StatisticRequest[];
}
