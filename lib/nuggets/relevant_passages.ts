/**
 * The inputs of nugget creation: per topic, its query and its relevant passages.
 *
 * @module
 */
import type { NuggetCreationInput } from "@lib/formats/mod.ts";
import {
  readPassages,
  readTopics,
  readWorkspaceQrels,
  type WorkspaceLike,
} from "@lib/store/mod.ts";

/** One topic's query and the passages nuggets are created from, in the order they are shown. */
export interface NuggetSource {
  topicId: string;
  query: string;
  passages: { passageId: string; text: string; grade?: number }[];
}

/** Options of {@linkcode relevantPassages}. */
export interface RelevantPassagesOptions {
  /** Passage qrels. Default `crux_pr` (3 required, 2 neutral, 1 redundant). */
  qrelsName?: string;
  /** Lowest grade kept. Default 1: every passage judged at least related (AutoNuggetizer). */
  minGrade?: number;
  /** Only these topics. Default: every topic with qrels. */
  topics?: readonly string[];
}

/**
 * A workspace's nugget-creation inputs: every topic's passages graded at least
 * `minGrade` in the passage qrels, highest grade first and in passage order
 * within a grade. The default (1) follows the AutoNuggetizer, which creates
 * nuggets from every passage judged at least "related" (its reference code
 * drops only judgments <= 0): with CRUX qrels (3 required, 2 neutral,
 * 1 redundant) every graded passage is kept. The query is the topic's request
 * (its title when there is none).
 *
 * @param ws The workspace.
 * @param opts Qrels name, minimum grade, topics.
 * @returns One source per topic with at least one passage, in topic order.
 * @example
 * ```ts
 * import { relevantPassages } from "@lib/nuggets/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const sources = await relevantPassages(ws);
 * ```
 */
export async function relevantPassages(
  ws: WorkspaceLike,
  opts: RelevantPassagesOptions = {},
): Promise<NuggetSource[]> {
  const minGrade = opts.minGrade ?? 1;
  const grades = new Map<string, number>();
  for (const q of await readWorkspaceQrels(ws, opts.qrelsName ?? "crux_pr")) {
    if ((q.subtopic ?? "0") !== "0" || q.grade < minGrade) continue;
    grades.set(`${q.topicId}\0${q.docId}`, q.grade);
  }
  const passages = await readPassages(ws);
  const out: NuggetSource[] = [];
  for (const t of await readTopics(ws, opts.topics)) {
    const list = (passages.get(t.topicId) ?? [])
      .map((p, i) => ({ p, i, grade: grades.get(`${t.topicId}\0${p.passageId}`) }))
      .filter((x) => x.grade !== undefined)
      .sort((a, b) => b.grade! - a.grade! || a.i - b.i)
      .map((x) => ({ passageId: x.p.passageId, text: x.p.text, grade: x.grade }));
    if (list.length) {
      out.push({ topicId: t.topicId, query: t.request || t.title || t.topicId, passages: list });
    }
  }
  return out;
}

/**
 * Nugget-creation inputs from a TREC RAG creation file (candidates judged below
 * the reader's `minJudgment`, default 1, already dropped), in file order.
 *
 * @param inputs The parsed creation input.
 * @returns One source per query.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { creationSources } from "@lib/nuggets/mod.ts";
 * assert.equal(creationSources([{ qid: "q1", query: "why?", candidates: [{ docid: "d1", segment: "Because.", judgment: 3 }] }])[0].passages[0].grade, 3);
 * ```
 */
export function creationSources(inputs: readonly NuggetCreationInput[]): NuggetSource[] {
  return inputs.map((i) => ({
    topicId: i.qid,
    query: i.query,
    passages: i.candidates.map((c) => ({
      passageId: c.docid,
      text: c.segment,
      ...(c.judgment === undefined ? {} : { grade: c.judgment }),
    })),
  }));
}
