/**
 * Types shared by the measure registry and the evaluator: a parsed measure, a
 * measure declaration, and the per-topic view a measure's function reads.
 *
 * @module
 */
import type { TopicView } from "./topic_view.ts";

/** A parameter value of a measure (`alpha=0.5`, `filter_by_oracle=false`). */
export type ParamValue = number | boolean;

/** A cutoff: a rank depth, or `oracle` for |P*| of the topic. */
export type Cutoff = number | "oracle";

/**
 * A parsed measure such as `alpha_nDCG(alpha=0.3)@20`. `params` holds the
 * parameters written in the measure string, including ones equal to their
 * declared defaults: an explicit value always wins over a command-wide default
 * (`EvaluateOptions.tau`/`rel`, `crux eval --tau`/`--rel`), while a parameter
 * left out takes the command-wide default, else the declared one.
 */
export interface Measure {
  /** Canonical measure name (`nDCG`, never an alias). */
  name: string;
  /** Parameters given explicitly, in declaration order (default-valued ones included). */
  params: Readonly<Record<string, ParamValue>>;
  /** Rank cutoff; absent = the whole ranking. */
  cutoff?: Cutoff;
}

/** A declared parameter of a measure. */
export interface MeasureParam {
  /** Value used when the measure string does not give one. */
  default: ParamValue;
  /** One line shown in help and docs. */
  description: string;
  /** Smallest value allowed (numeric parameters). */
  min?: number;
  /** Largest value allowed (numeric parameters). */
  max?: number;
  /** Only whole numbers are allowed. */
  integer?: boolean;
}

/** What a measure needs from the judgments. */
export type MeasureNeeds = "qrels" | "diversity" | "crux";

/** A measure with its parameters resolved (defaults applied, `oracle` turned into a depth). */
export interface ResolvedMeasure {
  /** The measure string as `formatMeasure` prints it with the command-wide defaults. */
  key: string;
  /** Every declared parameter with its effective value. */
  params: Readonly<Record<string, ParamValue>>;
  /** Rank depth; `Infinity` when the measure has no cutoff. */
  depth: number;
}

/**
 * The declaration of a measure (ir_measures style): a name, parameters with
 * defaults, documentation and a per-topic function. The evaluator owns ranking,
 * topic selection and averaging; the function only scores one topic.
 */
export interface MeasureDef {
  name: string;
  description: string;
  citation: string;
  params: Readonly<Record<string, MeasureParam>>;
  /** `required`: a cutoff must be given; `optional`; `none`: no cutoff allowed. */
  cutoff: "required" | "optional" | "none";
  /** Whether `@oracle` (|P*| of the topic) is allowed as cutoff. */
  oracleCutoff: boolean;
  /** Which judgments the measure reads. */
  needs: MeasureNeeds;
  /**
   * Scores one topic. Returns a string, the reason, when the topic must be left
   * out of the average (e.g. no answerable sub-question).
   */
  compute(view: TopicView, measure: ResolvedMeasure): number | string;
}
