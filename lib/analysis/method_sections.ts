/**
 * Tables and figures of the evaluation methods beside CRUX, by the key of their
 * experiment config section; the analyze stage runs those the config names.
 *
 * @module
 */
import type { Workspace } from "@lib/store/mod.ts";
import {
  type CompareSection,
  type KeyPointSection,
  METHOD_HEADLINES,
  type SubqSection,
} from "@lib/pipeline/mod.ts";
import type { Analysis } from "./types.ts";
import { keyPointAnalyses } from "./keypoint_analyses.ts";
import { nuggetAnalyses } from "./nugget_analyses.ts";
import { methodAnalyses } from "./method_analyses.ts";
import { subqAnalyses } from "./subq_analyses.ts";

/** What a method's analyses receive. */
export interface MethodAnalysesContext {
  /** The method's checked config section. */
  section: unknown;
  /** Experiment name, for titles. */
  experiment: string;
  /** Notes worth telling the user. */
  onNote?: (message: string) => void;
}

/** A method's analyses: the tables and figures of its stored results. */
export interface MethodAnalyses {
  /** Key of the method's config section (`nuggets`, `keypoints`, `subq`, `compare`). */
  key: string;
  /** Reads the method's results from the workspace and returns its tables and figures. */
  analyses(ws: Workspace, ctx: MethodAnalysesContext): Promise<Analysis[]>;
}

/** The method analyses, in the order the gallery and the demo show them. */
export const METHOD_ANALYSES: readonly MethodAnalyses[] = [
  { key: "nuggets", analyses: (ws) => nuggetAnalyses(ws) },
  {
    key: "keypoints",
    analyses: (ws, ctx) =>
      keyPointAnalyses(ws, { buckets: (ctx.section as KeyPointSection).buckets }),
  },
  {
    key: "subq",
    analyses: (ws, ctx) => {
      const s = ctx.section as SubqSection;
      return subqAnalyses(ws, {
        source: s.source,
        weights: s.weights,
        validation: s.validation,
        seed: s.seed,
        ...(s.preferences && s.preferencesOrigin
          ? { preferenceOrigins: { [s.preferences]: s.preferencesOrigin } }
          : {}),
      });
    },
  },
  {
    key: "compare",
    analyses: (ws, ctx) => {
      const s = ctx.section as CompareSection;
      return methodAnalyses(ws, {
        methods: s.methods
          ? METHOD_HEADLINES.filter((h) => s.methods!.includes(h.method))
          : undefined,
        judges: s.judges,
        sources: s.sources,
        minRuns: s.minRuns,
      });
    },
  },
];
