/**
 * A workspace's judgments as evaluator inputs, with the relevance source named.
 *
 * @module
 */
import type { JudgedInputs } from "@lib/metrics/mod.ts";
import {
  passageJudge,
  readPassageJudgments,
  readWorkspaceQrels,
  type Workspace,
} from "@lib/store/mod.ts";

/**
 * Where P, R, AP, nDCG and alpha-nDCG take relevance from: `selection` uses the
 * selection's qrels (3 required / 2 neutral / 1 redundant, `crux_pr`) and its
 * diversity qrels (`crux_div`); `judgments` derives them from the ratings alone
 * (a passage is relevant at rating >= tau, P* = every rated passage), as
 * `crux eval --judgments` does without `--qrels`. Cov and Den use the ratings
 * either way.
 */
export type RelevanceSource = "selection" | "judgments";

/**
 * A density measure needed the token count of a passage the workspace does not
 * have (missing from the corpus, or never counted). Callers that may measure
 * without density (the pipeline's measure stage) catch it and say so.
 */
export class MissingTokensError extends RangeError {
  /** The passage without a token count. */
  readonly passageId: string;
  constructor(passageId: string, inWorkspace: boolean) {
    super(
      `Cannot measure density: passage "${passageId}" ${
        inWorkspace ? "has no token count" : "is not in the workspace's passages"
      }; import or count its text first`,
    );
    this.name = "MissingTokensError";
    this.passageId = passageId;
  }
}

/** Options of {@linkcode workspaceJudged}. */
export interface WorkspaceJudgedOptions {
  /** Relevance source. Default `selection`. */
  source?: RelevanceSource;
  /** Judge of the passage ratings. Default: the only judge of passages (an error when several). */
  judge?: string;
}

/**
 * Reads the judge's passage judgments and stored token counts (the store's
 * `readPassageJudgments`, whose rules hold here) and the selection's qrels when
 * `source` is `selection`. A passage without a token count (or missing from the
 * workspace) is an error naming it, raised when a density measure asks for it.
 *
 * @param ws The workspace.
 * @param opts `source` (default `selection`) and `judge`.
 * @returns Evaluator inputs and the judge used.
 * @throws {RangeError} When several judges rated passages and none is named, or the named one rated none.
 * @example
 * ```ts
 * import { workspaceJudged } from "@lib/pipeline/mod.ts";
 * import { evaluate } from "@lib/metrics/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const { inputs } = await workspaceJudged(ws, { source: "judgments" });
 * evaluate(await ws.runRows("bm25"), ["P@10", "Cov@10"], inputs);
 * ```
 */
export async function workspaceJudged(
  ws: Workspace,
  opts: WorkspaceJudgedOptions = {},
): Promise<{ inputs: JudgedInputs; judge: string; source: RelevanceSource }> {
  const judge = await passageJudge(ws, "evaluate passage contexts", opts.judge);
  // The store's one reading of passage judgments: a rated passage keeps its
  // ratings whether or not its text was imported; only density needs its
  // (stored) token count, and says so.
  const { judgments, tokens } = await readPassageJudgments(ws, judge, "evaluate passage contexts");
  const source = opts.source ?? "selection";
  const inputs: JudgedInputs = {
    judgments,
    tokens: (id) => {
      const n = tokens.get(id);
      if (n === undefined || n === null) {
        throw new MissingTokensError(id, tokens.has(id));
      }
      return n;
    },
  };
  if (source === "selection") {
    inputs.qrels = await readWorkspaceQrels(ws, "crux_pr");
    inputs.diversityQrels = await readWorkspaceQrels(ws, "crux_div");
  }
  return { inputs, judge, source };
}
