/**
 * The evaluation methods an experiment config can add beside CRUX, each with
 * its config section and stages (see {@linkcode MethodStages}).
 *
 * @module
 */
import type { MethodStages } from "./method_stage.ts";
import { keypointStages } from "./keypoint_stages.ts";
import { NUGGET_STAGES } from "./nugget_stages.ts";
import { SUBQ_STAGES } from "./subq_stages.ts";
import { compareStages } from "./compare_stages.ts";

/** Every method section an experiment config accepts, in stage order (the comparison last: it reads the others). */
export const METHODS: readonly MethodStages<unknown>[] = [
  NUGGET_STAGES as MethodStages<unknown>,
  keypointStages as MethodStages<unknown>,
  SUBQ_STAGES as MethodStages<unknown>,
  compareStages as MethodStages<unknown>,
];
