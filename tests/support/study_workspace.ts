/**
 * A workspace for annotation tests: topics with numbered sub-questions and the
 * reports of some generation runs, plus whatever else a test writes in `more`.
 */
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";

/** What {@linkcode studyWorkspace} writes. */
export interface StudyWorkspaceOptions {
  /** Prefix of the temporary folder. */
  prefix: string;
  topics: readonly string[];
  /** Sub-questions per topic: `{topic}-q{o}`, "Question o of topic?", o from 1. */
  questions: number;
  runs: readonly string[];
  /** The report of a run on a topic. */
  report: (run: string, topic: string) => string;
  /** More rows, written before the workspace is closed. */
  more?: (ws: Workspace) => Promise<void>;
}

/**
 * Writes the topics (request "Request of {topic}"), their sub-questions and every
 * run's report of every topic into a new temporary workspace.
 *
 * @returns The workspace folder.
 */
export async function studyWorkspace(o: StudyWorkspaceOptions): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: o.prefix });
  const ws = await openWorkspace(dir);
  try {
    await ws.insert("topics", o.topics.map((t) => ({ topicId: t, request: `Request of ${t}` })));
    await ws.insert(
      "questions",
      o.topics.flatMap((t) =>
        Array.from({ length: o.questions }, (_, i) => i + 1).map((n) => ({
          topicId: t,
          questionId: `${t}-q${n}`,
          kind: "subquestion",
          ordinal: n,
          text: `Question ${n} of ${t}?`,
        }))
      ),
    );
    await ws.insert(
      "generations",
      o.runs.flatMap((run) => o.topics.map((t) => ({ run, topicId: t, text: o.report(run, t) }))),
    );
    await o.more?.(ws);
  } finally {
    ws.close();
  }
  return dir;
}
