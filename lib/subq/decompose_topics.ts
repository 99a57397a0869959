/**
 * The decomposition stage over a workspace: sub-questions of every topic's request.
 *
 * @module
 */
import {
  readPassages,
  readSubqTopicIds,
  readTopics,
  readWorkspaceSubquestions,
  type WorkspaceLike,
  writeSubqFailures,
  writeSubqQuestions,
} from "@lib/store/mod.ts";
import { decomposeQuestions } from "./decompose_questions.ts";
import type { SubqStepOptions } from "./types.ts";

/** Options of {@linkcode decomposeTopics}. */
export interface DecomposeTopicsOptions extends SubqStepOptions {
  /**
   * Origin of the sub-questions: `decompose` (default) decomposes each topic's request;
   * `crux` copies the workspace's CRUX sub-questions (untyped) instead.
   */
  source?: string;
  /** Sub-questions per topic. Default 20. */
  n?: number;
  /** Passages per topic given to the offline backend (in passage order). Default 20. */
  passages?: number;
  onNote?: (message: string) => void;
}

/** What {@linkcode decomposeTopics} did. */
export interface DecomposeTopicsSummary {
  topics: number;
  written: number;
  failed: number;
  backend: string;
}

/**
 * Writes the sub-questions of every topic that has none yet for `source` into
 * `subq_questions` (untyped). Topics whose decomposition failed or did not
 * parse get a row in `subq_failures` (with the raw output) and no sub-questions.
 *
 * @param ws The workspace (topics with requests; passages for the offline backend).
 * @param opts Source, n, backend options.
 * @returns Counts and the backend name.
 * @example
 * ```ts
 * import { decomposeTopics } from "@lib/subq/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await decomposeTopics(ws, { n: 20 }); // offline: noun-phrase templates
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function decomposeTopics(
  ws: WorkspaceLike,
  opts: DecomposeTopicsOptions = {},
): Promise<DecomposeTopicsSummary> {
  const source = opts.source ?? "decompose";
  const done = new Set(await readSubqTopicIds(ws, source));
  const topics = (await readTopics(ws)).filter((t) => t.request && !done.has(t.topicId));
  const summary = { topics: 0, written: 0, failed: 0, backend: "" };
  const rows: object[] = [];
  if (source === "crux") {
    const crux = await readWorkspaceSubquestions(ws);
    for (const t of topics) {
      const qs = crux.get(t.topicId) ?? [];
      if (!qs.length) opts.onNote?.(`Topic "${t.topicId}" has no CRUX sub-questions`);
      qs.forEach((q, i) =>
        rows.push({ topicId: t.topicId, source, ordinal: i + 1, text: q.text, decomposer: "crux" })
      );
      if (qs.length) summary.topics++;
    }
    summary.backend = "crux";
  } else {
    const passages = await readPassages(ws);
    const results = await decomposeQuestions(
      topics.map((t) => ({
        id: t.topicId,
        question: t.request,
        passages: (passages.get(t.topicId) ?? []).slice(0, opts.passages ?? 20).map((p) => p.text),
      })),
      opts,
    );
    const failures: object[] = [];
    for (const r of results) {
      summary.backend = r.backend;
      if (r.status !== "ok") {
        summary.failed++;
        failures.push({
          topicId: r.id,
          source,
          step: "decompose",
          status: r.status,
          raw: r.raw ?? "",
          backend: r.backend,
        });
        opts.onNote?.(`Topic "${r.id}": decomposition ${r.status}; re-run the stage to retry`);
        continue;
      }
      summary.topics++;
      r.subQuestions.forEach((text, i) =>
        rows.push({ topicId: r.id, source, ordinal: i + 1, text, decomposer: r.backend })
      );
    }
    await writeSubqFailures(ws, failures);
  }
  await writeSubqQuestions(ws, rows);
  summary.written = rows.length;
  return summary;
}
