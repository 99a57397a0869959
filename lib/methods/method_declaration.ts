/**
 * The shape of an evaluation method's one declaration: everything the
 * pipeline, the analyses, the command line, the demo and the notebooks need to
 * know about a method, in one object.
 *
 * @module
 */
import type { Analysis } from "@lib/analysis/mod.ts";
import type { ExperimentMethod, MethodHeadline } from "@lib/pipeline/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";

/** What a method's analyses receive. */
export interface MethodAnalysesContext {
  /** The method's checked config section. */
  section: unknown;
  /** Experiment name, for titles. */
  experiment: string;
  /** Headlines of the experiment's methods (CRUX and those with a section), in registry order: what the comparison reads. */
  headlines: readonly MethodHeadline[];
  /** Notes worth telling the user. */
  onNote?: (message: string) => void;
}

/**
 * One evaluation method. The pipeline part ({@linkcode ExperimentMethod}) gives
 * the key, the headline measures, the model roles, the one backends factory
 * (offline without clients, model backends with them; the pipeline's stages
 * and the method's commands both build their backends through it) and the
 * config section (parser, whose result for `{}` is the section's defaults, and
 * stages). The rest is what the layers above the pipeline use.
 */
export interface MethodDeclaration<S = unknown, B = unknown> extends ExperimentMethod<S, B> {
  /** Display name. */
  label: string;
  /** Tables and figures of the method's stored results (the analyze stage's and the notebook's). */
  analyses?(ws: Workspace, ctx: MethodAnalysesContext): Promise<Analysis[]>;
  /** Tables the demo prints, in order, when the analyze stage made them. */
  tables: readonly string[];
  /** The method's own `crux` commands (`crux nuggets ...`). */
  commands: readonly string[];
}
