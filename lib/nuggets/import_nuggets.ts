/**
 * Nugget lists made elsewhere (TREC RAG nugget files, human nugget questions)
 * into the workspace.
 *
 * @module
 */
import type { NuggetSet, TopicNuggetQuestions } from "@lib/formats/mod.ts";
import type { Topic } from "@lib/types/mod.ts";
import {
  clearTopicNuggets,
  readTopics,
  type WorkspaceLike,
  writeNuggets,
  writeTopicRows,
} from "@lib/store/mod.ts";

/** What {@linkcode importNuggets} wrote. */
export interface ImportNuggetsResult {
  origin: string;
  topics: number;
  nuggets: number;
  /** Nuggets without an importance (label them with `labelNuggets`). */
  unlabelled: number;
}

const isQuestions = (x: NuggetSet | TopicNuggetQuestions): x is TopicNuggetQuestions =>
  "topicId" in x;

/**
 * Stores imported nuggets under `origin` (normally `file:<basename>`), in file
 * order. A TREC RAG nugget set keeps its importance (labeller `file`); a human
 * nugget question becomes the nugget "question Answer: a1; a2" without an
 * importance, for the labelling step. The nugget sets' queries fill in topics the
 * workspace does not have. Replaces the topics' earlier nuggets of that origin
 * and the assignments made to them. Every nugget is kept (the 20 limit applies
 * when the labelling step runs).
 *
 * @param ws The workspace.
 * @param sets Nugget sets ({@linkcode readNuggets}) or topics of nugget questions ({@linkcode readNuggetQuestions}).
 * @param opts `origin` (required).
 * @returns Counts.
 * @example
 * ```ts
 * import { importNuggets } from "@lib/nuggets/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await importNuggets(ws, [{ qid: "q1", query: "why?", nuggets: [{ text: "because", importance: "vital" }] }], {
 *   origin: "file:nuggets.jsonl",
 * });
 * ```
 */
export async function importNuggets(
  ws: WorkspaceLike,
  sets: readonly (NuggetSet | TopicNuggetQuestions)[],
  opts: { origin: string },
): Promise<ImportNuggetsResult> {
  const known = new Set((await readTopics(ws)).map((t) => t.topicId));
  const topics: Topic[] = [];
  const rows: object[] = [];
  let unlabelled = 0;
  for (const s of sets) {
    const topicId = isQuestions(s) ? s.topicId : s.qid;
    if (!isQuestions(s) && !known.has(topicId)) {
      known.add(topicId);
      topics.push({ topicId, request: s.query, source: opts.origin });
    }
    const list = isQuestions(s)
      ? s.nuggets.map((q) => ({
        text: `${q.question} Answer: ${q.answers.join("; ")}`,
        importance: undefined,
      }))
      : s.nuggets;
    await clearTopicNuggets(ws, { topicId, origin: opts.origin });
    list.forEach((n, i) => {
      if (!n.importance) unlabelled++;
      rows.push({
        topicId,
        origin: opts.origin,
        ordinal: i + 1,
        text: n.text,
        importance: n.importance ?? null,
        importanceBy: n.importance ? "file" : null,
        importanceCall: null,
        importanceRaw: null,
        kept: true,
        call: null,
      });
    });
  }
  await writeTopicRows(ws, topics);
  await writeNuggets(ws, rows);
  return { origin: opts.origin, topics: sets.length, nuggets: rows.length, unlabelled };
}
