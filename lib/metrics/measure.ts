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
 * A parsed measure such as `alpha_nDCG(alpha=0.3)@20`. `params` holds only the
 * parameters that differ from their defaults, so equal measures are equal objects.
 */
export interface Measure {
  /** Canonical measure name (`nDCG`, never an alias). */
  name: string;
  /** Explicit parameters that differ from the declared defaults. */
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
}

/** What a measure needs from the judgments. */
export type MeasureNeeds = "qrels" | "diversity" | "crux";

/** A measure with its parameters resolved (defaults applied, `oracle` turned into a depth). */
export interface ResolvedMeasure {
  /** The measure string as printed by `formatMeasure`. */
  key: string;
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
