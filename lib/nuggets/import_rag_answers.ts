/**
 * TREC RAG answer files into the workspace's `generations`.
 *
 * @module
 */
import { answerGeneration, type RagAnswer } from "@lib/formats/mod.ts";
import type { Topic } from "@lib/types/mod.ts";
import {
  readTopics,
  type WorkspaceLike,
  writeGenerationRows,
  writeTopicRows,
} from "@lib/store/mod.ts";

/**
 * Stores answers as generations (run = `run_id`, text = the sentences joined by
 * spaces, context = the references, condition and backend `file`), so they are
 * assigned and scored like the workbench's own reports. Topics the workspace
 * does not have are added with the answer's `topic` as request. Answers replace
 * earlier generations of the same run and topic.
 *
 * @param ws The workspace.
 * @param answers Parsed answers ({@linkcode readRagAnswers}).
 * @returns Runs and answers stored.
 * @throws {RangeError} When a run answers a topic twice, naming both.
 * @example
 * ```ts
 * import { importRagAnswers } from "@lib/nuggets/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await importRagAnswers(ws, [{ runId: "r", topicId: "q1", topic: "why?", references: [], answer: [] }]);
 * ```
 */
export async function importRagAnswers(
  ws: WorkspaceLike,
  answers: readonly RagAnswer[],
): Promise<{ runs: string[]; answers: number }> {
  const seen = new Set<string>();
  for (const a of answers) {
    const key = `${a.runId}\0${a.topicId}`;
    if (seen.has(key)) {
      throw new RangeError(
        `Run "${a.runId}" answers topic "${a.topicId}" twice; keep one line per topic and run`,
      );
    }
    seen.add(key);
  }
  const known = new Set((await readTopics(ws)).map((t) => t.topicId));
  const topics = new Map<string, Topic>();
  for (const a of answers) {
    if (!known.has(a.topicId) && !topics.has(a.topicId)) {
      topics.set(a.topicId, { topicId: a.topicId, request: a.topic, source: "answers" });
    }
  }
  await writeTopicRows(ws, [...topics.values()]);
  await writeGenerationRows(
    ws,
    answers.map((a) => ({ ...answerGeneration(a), condition: "file", backend: "file" })),
  );
  return { runs: [...new Set(answers.map((a) => a.runId))], answers: answers.length };
}
