// Construction step `select`: the required subset P* and the qrels of each topic in a workspace.

import type { Question } from "@lib/types/mod.ts";
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import {
  deleteTopicQrels,
  incompleteRatingTopics,
  passageJudge,
  readPassages,
  readRatings,
  readTopics,
  readWorkspaceSubquestions,
  recordQrels,
  type WorkspaceLike,
  writeQrelsRows,
  writeQuestionRows,
} from "@lib/store/mod.ts";
import { ratingMatrices } from "./_rating_matrix.ts";
import { selectTopic } from "./select_topic.ts";
import type { StepOptions, StepSummary } from "./types.ts";

/** Options of {@link selectRequired}. */
export interface SelectRequiredOptions extends Omit<StepOptions, "onProgress" | "signal"> {
  /** Answerability threshold. Default {@linkcode CRUX_DEFAULTS}.tau (3). */
  tau?: number;
  /** Redundancy rule: `all` sub-questions (default, the original CRUX code) or `answerable` only. */
  redundancy?: "all" | "answerable";
  /** Judge whose ratings drive selection. Default: the only judge with passage ratings. */
  judge?: string;
  /** Name of the passage qrels written. Default `crux_pr`. */
  qrelsName?: string;
  /** Name of the diversity qrels written. Default `crux_div`. */
  divQrelsName?: string;
}

/** What {@link selectRequired} did, plus the dropped topics. */
export interface SelectSummary extends StepSummary {
  judge: string;
  /** Topics where nothing was kept (left out of the qrels). */
  dropped: string[];
  /** Pairs with no rating in a partly rated passage, counted as 0. */
  missing: number;
  /** Passages of a topic's documents the judge rated on no sub-question of that topic: left out of selection and qrels. */
  unrated: number;
}

/**
 * Construction step `select`: answerability filtering at tau and the greedy
 * required subset per topic (see {@link selectTopic}), written to the workspace
 * as passage qrels `crux_pr` (grades 3/2/1), diversity qrels `crux_div`
 * (sub-questions numbered from 1) and the `answerable` flag of each
 * sub-question. Previous qrels of those names for the topics are replaced.
 * Topics where nothing is kept are dropped (no qrels) and listed.
 *
 * @param ws The experiment workspace.
 * @param opts `tau` (default 3), `judge` (default: the only one), qrels names.
 * @returns Counts, the judge used and the dropped topics.
 * @throws {RangeError} When several judges rated passages and none was chosen, or the chosen one rated none.
 * @example
 * ```ts
 * import { selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const s = await selectRequired(ws, { tau: 3 });
 * s.dropped; // topics left out of the dataset
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function selectRequired(
  ws: WorkspaceLike,
  opts: SelectRequiredOptions = {},
): Promise<SelectSummary> {
  const tau = opts.tau ?? CRUX_DEFAULTS.tau;
  const prName = opts.qrelsName ?? "crux_pr";
  const divName = opts.divQrelsName ?? "crux_div";
  const judge = await passageJudge(ws, "select required passages", opts.judge, {
    selection: false,
  }).catch(async (error) => {
    // A judge that rated no passage yet because its ratings failed selects nothing:
    // its topics wait below, as when some of their passages are rated.
    const waits = opts.judge !== undefined && error instanceof RangeError &&
      (await incompleteRatingTopics(ws, opts.judge)).length > 0;
    if (!waits) throw error;
    return opts.judge!;
  });
  const topics = await readTopics(ws, opts.topics);
  const questions = await readWorkspaceSubquestions(ws);
  const passages = await readPassages(ws);
  const ids = new Map(
    topics.filter((t) => questions.has(t.topicId)).map((t) => [
      t.topicId,
      (passages.get(t.topicId) ?? []).map((p) => p.passageId),
    ]),
  );
  // A topic whose ratings have failed or unparsed pairs is not selected from
  // partial ratings: it waits, without qrels, until a re-run rates them.
  const incomplete = (await incompleteRatingTopics(ws, judge)).filter((t) => ids.has(t));
  for (const t of incomplete) {
    ids.delete(t);
    await deleteTopicQrels(ws, t, [prName, divName]);
  }
  if (incomplete.length) {
    opts.onNote?.(
      `${incomplete.length} topics have failed or unparsed ratings by "${judge}" and are left out ` +
        `of the selection until a re-run rates them: ${incomplete.slice(0, 5).join(", ")}${
          incomplete.length > 5 ? ", ..." : ""
        }`,
    );
  }
  const qids = new Map([...ids.keys()].map((t) => [t, questions.get(t)!.map((q) => q.questionId)]));
  // Each topic's own ratings: the passages rated under it (its documents' or
  // another topic's, as a run ranking the whole corpus brings them), never a
  // passage rated only under another topic.
  // A rated passage without text in the workspace (missing from the corpus) is no row:
  // P* is made of passages whose texts a report can be written from and measured by.
  const known = new Set([...passages.values()].flat().map((p) => p.passageId));
  const rated = await readRatings(ws, judge, { kind: "passage" });
  const textless = new Set(
    rated.filter((r) => qids.has(r.topicId) && !known.has(r.itemId)).map((r) => r.itemId),
  );
  if (textless.size) {
    opts.onNote?.(
      `${textless.size} passages rated by "${judge}" have no text in the workspace and are left ` +
        `out of the selection: ${[...textless].slice(0, 5).join(", ")}${
          textless.size > 5 ? ", ..." : ""
        }`,
    );
  }
  const matrices = ratingMatrices(rated.filter((r) => known.has(r.itemId)), qids);
  const summary: SelectSummary = {
    step: "select",
    topics: 0,
    skipped: topics.length - ids.size - incomplete.length,
    written: 0,
    failed: incomplete.length,
    unparsed: 0,
    judge,
    dropped: [],
    missing: 0,
    unrated: 0,
  };
  const qrels = [];
  const flags: Question[] = [];
  for (const [topicId, m] of matrices) {
    // Only passages rated under the topic are selected and graded; the topic's
    // own passages not rated under it get no qrels line.
    const rated = new Set(m.passageIds);
    summary.unrated += ids.get(topicId)!.filter((p) => !rated.has(p)).length;
    summary.missing += m.missing;
    summary.unparsed += m.ratings.reduce((n, row) => n + row.filter((r) => r === -1).length, 0);
    const s = selectTopic(m, { tau, redundancy: opts.redundancy });
    await deleteTopicQrels(ws, topicId, [prName, divName]);
    questions.get(topicId)!.forEach((q, k) => flags.push({ ...q, answerable: s.answerable[k] }));
    if (s.dropped) {
      summary.dropped.push(topicId);
      opts.onNote?.(
        `Topic "${topicId}": no passage answers any sub-question at rating >= ${tau}; dropped`,
      );
      continue;
    }
    summary.topics++;
    for (const q of s.qrels) qrels.push({ name: prName, ...q });
    for (const q of s.divQrels) qrels.push({ name: divName, ...q });
  }
  if (summary.unrated) {
    opts.onNote?.(
      `${summary.unrated} passages have no rating by "${judge}": left out of selection and qrels`,
    );
  }
  if (summary.missing) {
    opts.onNote?.(
      `${summary.missing} (passage, sub-question) pairs have no rating by "${judge}" and count as 0`,
    );
  }
  await writeQrelsRows(ws, qrels);
  for (const name of [prName, divName]) {
    await recordQrels(ws, {
      name,
      origin: "selection",
      judge,
      tau,
      redundancy: opts.redundancy ?? "all",
    });
  }
  await writeQuestionRows(ws, flags);
  summary.written = qrels.length;
  return summary;
}
