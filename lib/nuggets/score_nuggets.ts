/**
 * Nugget scores of stored assignments, into the measure table.
 *
 * @module
 */
import {
  formatTopicSet,
  meanNuggetScores,
  type NuggetJudgment,
  type NuggetScores,
  nuggetScores,
} from "@lib/metrics/mod.ts";
import {
  deleteMeasures,
  measureRow,
  readNuggetJudgments,
  type WorkspaceLike,
  writeMeasures,
} from "@lib/store/mod.ts";
import { groupBy } from "./_windows.ts";

/** The four measures, as stored in `measures` (`name` = `measure`, cutoff ''). */
export const NUGGET_MEASURES = ["strict_vital", "vital", "strict_all", "all"] as const;

/** The count of an answer's (and, on topic `all`, a run's) failed nugget labels. */
const FAILED_LABELS = "nugget_labels_failed";

const FIELD = {
  strict_vital: "strictVital",
  vital: "vital",
  strict_all: "strictAll",
  all: "all",
} as const;

/** Options of {@linkcode scoreNuggets}. */
export interface ScoreNuggetsOptions {
  /** Origin of the nuggets, stored as the measures' `source`. */
  origin: string;
  /** Judge of the assignments. */
  judge: string;
  /** Only these runs. Default: every run with assignments of that origin and judge. */
  runs?: readonly string[];
  /** Store the rows in `measures`. Default true. */
  store?: boolean;
}

/** Scores of one run: per answer and the mean. */
export interface RunNuggetScores {
  run: string;
  perAnswer: ({
    topicId: string;
    nuggets: number;
    vitalNuggets: number;
    /** Labels `failed` of the answer. */
    failedLabels: number;
  } & NuggetScores)[];
  mean: NuggetScores;
  /** Labels `failed` (counted as not_support). */
  failedLabels: number;
  /** Nuggets whose importance failed (counted as okay). */
  failedImportance: number;
}

/**
 * Scores every answer from its stored nugget labels (METRICS.md: strict_vital,
 * vital, strict_all, all; `failed` labels count as not_support, a nugget whose
 * importance failed counts as okay, no (vital) nuggets score 0) and each run as
 * the mean over its answers. Stores them in `measures` with method `nuggets`,
 * run = the answer run, topic per answer plus `all` (with `topics` = answers),
 * judge and source = the nuggets' origin; beside them `nugget_labels_failed`,
 * the answer's failed labels and, on `all`, the run's (a count of failures,
 * known however many failed).
 *
 * @param ws The workspace.
 * @param opts Origin and judge (required), runs, store.
 * @returns Per-run scores.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs the nugget assignments of a pipeline run.
 * import { scoreNuggets } from "@lib/nuggets/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const [r] = await scoreNuggets(ws, { origin: "created:offline", judge: "lexical-nuggets" });
 * r.mean.strictVital;
 * ```
 */
export async function scoreNuggets(
  ws: WorkspaceLike,
  opts: ScoreNuggetsOptions,
): Promise<RunNuggetScores[]> {
  const rows = await readNuggetJudgments(ws, opts.origin, opts.judge);
  const out: RunNuggetScores[] = [];
  for (const [run, list] of groupBy(rows, (r) => r.run)) {
    if (opts.runs && !opts.runs.includes(run)) continue;
    const r: RunNuggetScores = {
      run,
      perAnswer: [],
      mean: { strictVital: 0, vital: 0, strictAll: 0, all: 0 },
      failedLabels: 0,
      failedImportance: 0,
    };
    const answers: NuggetJudgment[][] = [];
    for (const [topicId, labels] of groupBy(list, (x) => x.topicId)) {
      const judgments: NuggetJudgment[] = labels.map((l) => {
        if (l.label === "failed") r.failedLabels++;
        if (l.importance !== "vital" && l.importance !== "okay") r.failedImportance++;
        return {
          importance: l.importance === "vital" ? "vital" : "okay",
          assignment: l.label as NuggetJudgment["assignment"],
        };
      });
      answers.push(judgments);
      r.perAnswer.push({
        topicId,
        failedLabels: labels.filter((l) => l.label === "failed").length,
        nuggets: judgments.length,
        vitalNuggets: judgments.filter((j) => j.importance === "vital").length,
        ...nuggetScores(judgments),
      });
    }
    // The mean `crux nuggets score --assignments` gives too: one scorer for both routes.
    r.mean = meanNuggetScores(answers);
    out.push(r);
  }
  if (opts.store ?? true) {
    const measures = out.flatMap((r) =>
      [...r.perAnswer, { topicId: "all", ...r.mean }].flatMap((s) =>
        NUGGET_MEASURES.map((m) =>
          measureRow({
            run: r.run,
            topicId: s.topicId,
            measure: m,
            method: "nuggets",
            judge: opts.judge,
            source: opts.origin,
            value: s[FIELD[m]],
            topics: s.topicId === "all" ? r.perAnswer.length : null,
            // The answers scored (every answer of the run with assignments).
            topicSet: s.topicId === "all"
              ? formatTopicSet({ kind: "judged", n: r.perAnswer.length })
              : formatTopicSet({ kind: "topic", id: s.topicId }),
          })
        )
      ).concat(
        [...r.perAnswer, { topicId: "all", failedLabels: r.failedLabels }].map((s) =>
          measureRow({
            run: r.run,
            topicId: s.topicId,
            measure: FAILED_LABELS,
            method: "nuggets",
            judge: opts.judge,
            source: opts.origin,
            value: s.failedLabels,
            topics: s.topicId === "all" ? r.perAnswer.length : null,
            topicSet: s.topicId === "all"
              ? formatTopicSet({ kind: "judged", n: r.perAnswer.length })
              : formatTopicSet({ kind: "topic", id: s.topicId }),
          })
        ),
      )
    );
    await deleteMeasures(ws, {
      method: "nuggets",
      judgeSources: [{ judge: opts.judge, source: opts.origin }],
      run: out.map((r) => r.run),
    });
    await writeMeasures(ws, measures);
  }
  return out;
}
