/**
 * Evaluation that leaves density out, and says why, when a context holds a
 * passage without text: the one policy of the measure stage, the main table
 * and the context evaluation.
 *
 * @module
 */
import {
  evaluate,
  type EvaluateOptions,
  type EvaluationResult,
  type Judged,
  type JudgedInputs,
  parseMeasure,
} from "@lib/metrics/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";
import { MissingTokensError } from "./workspace_judged.ts";

/** What {@linkcode evaluateAvailable} measured. */
export interface AvailableEvaluation {
  result: EvaluationResult;
  /** The measures evaluated, as given (density ones dropped when a passage had no text). */
  kept: string[];
  /** Why density was left out (the missing passage), or undefined when nothing was. */
  leftOut?: string;
}

/**
 * Evaluates `measures`; when a density measure needs the token count of a
 * passage without text ({@linkcode MissingTokensError}), evaluates every other
 * measure and reports the reason, instead of counting the passage as 0 tokens.
 *
 * @param rows Run rows.
 * @param measures Measure strings.
 * @param inputs Judged inputs whose `tokens` throw `MissingTokensError` for a passage without text.
 * @param opts Evaluator options.
 * @returns The evaluation, the measures kept and the reason density was left out.
 * @throws Whatever `evaluate` throws other than `MissingTokensError`.
 * @example
 * ```ts
 * import { evaluateAvailable, workspaceJudged } from "@lib/pipeline/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const { inputs } = await workspaceJudged(ws);
 * const { kept, leftOut } = evaluateAvailable(await ws.runRows("bm25"), ["Cov@10", "Den@10"], inputs);
 * ```
 */
export function evaluateAvailable(
  rows: readonly RunRow[],
  measures: readonly string[],
  inputs: JudgedInputs | Judged,
  opts: EvaluateOptions = {},
): AvailableEvaluation {
  try {
    return { result: evaluate(rows, measures, inputs, opts), kept: [...measures] };
  } catch (e) {
    if (!(e instanceof MissingTokensError)) throw e;
    const kept = measures.filter((m) => parseMeasure(m).name !== "Den");
    return {
      result: evaluate(rows, kept, inputs, opts),
      kept,
      leftOut: e.message.replace(/^Cannot measure density: /, ""),
    };
  }
}
