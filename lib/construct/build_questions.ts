// Construction step `questions`: writes each topic's sub-questions from its reference summary.

import { type LlmClient, loadTemplate, parseTagged, renderTemplate } from "@lib/llm/mod.ts";
import type { Question, Topic } from "@lib/types/mod.ts";
import { stripQuestionNumbering } from "@lib/formats/mod.ts";
import { splitSentences } from "@lib/text/mod.ts";
import {
  readTopics,
  readWorkspaceSubquestions,
  type WorkspaceLike,
  writeQuestionRows,
} from "@lib/store/mod.ts";
import type { StepOptions, StepSummary } from "./types.ts";
import { subquestionCount } from "./subquestion_count.ts";

/** Options of {@link buildQuestions}. */
export interface BuildQuestionsOptions extends StepOptions {
  /** Model client; without it offline questions are framed around summary sentences. */
  client?: LlmClient;
  /** Folder of replacement prompt templates. Default: the built-in ones. */
  templatesDir?: string;
  /**
   * Sub-questions per topic: one number, or counts by dataset (`Topic.source`;
   * `default` for the rest). Default CRUX's: 15 for DUC (`duc04`), 10 for
   * Multi-News and any other dataset.
   */
  n?: number | Readonly<Record<string, number>>;
  /** Re-asks (at temperature 0.2) when the answer has no `<q>` tag. Default 1. */
  reasks?: number;
}

function offlineQuestions(topic: Topic, n: number): string[] {
  return splitSentences(topic.summary ?? "")
    .map((s) => s.trim().replace(/[.!?]+$/, ""))
    .filter(Boolean)
    .slice(0, n)
    .map((s) => `Is it that ${s.charAt(0).toLowerCase()}${s.slice(1)}?`);
}

/**
 * Turns question texts into sub-question records: numbering stripped, blanks
 * and duplicates dropped, at most `n`, ordinals from 1, ids `{topic}#q{ordinal}`.
 */
function toQuestions(topicId: string, texts: readonly string[], n: number): Question[] {
  const seen = new Set<string>();
  const out: Question[] = [];
  for (const raw of texts) {
    const text = stripQuestionNumbering(raw).replace(/\s+/g, " ").trim();
    if (!text || seen.has(text.toLowerCase()) || out.length >= n) continue;
    seen.add(text.toLowerCase());
    const ordinal = out.length + 1;
    out.push({ topicId, questionId: `${topicId}#q${ordinal}`, kind: "subquestion", ordinal, text });
  }
  return out;
}

/**
 * Construction step `questions`: generates n sub-questions (`<q>` tags; n = 15
 * for DUC, 10 for Multi-News) from the human summary of every topic that has
 * none yet, with the `subquestions` template; numbering left by the model is
 * stripped, duplicates dropped, and ids are `{topic}#q{ordinal}`. Without a
 * client, each of the summary's first n sentences becomes a yes/no question
 * (`Is it that ...?`; the frame words are stop words, so lexical judging sees
 * only the sentence's content).
 * Fewer than n questions are kept as they are and noted.
 *
 * @param ws The experiment workspace.
 * @param opts Backend, `n` (default per dataset: DUC 15, otherwise 10) and callbacks.
 * @returns What was done (`written` = questions stored).
 * @example
 * ```ts
 * import { buildQuestions } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await buildQuestions(ws, { n: 15 }); // offline; pass `client` (an LlmClient) for a model
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function buildQuestions(
  ws: WorkspaceLike,
  opts: BuildQuestionsOptions = {},
): Promise<StepSummary> {
  const note = opts.onNote ?? (() => {});
  const topics = await readTopics(ws, opts.topics);
  const counts = new Map(topics.map((t) => [t.topicId, subquestionCount(t.source, opts.n)]));
  const existing = await readWorkspaceSubquestions(ws);
  const todo = topics.filter((t) => t.summary && !existing.has(t.topicId));
  const summary: StepSummary = {
    step: "questions",
    topics: 0,
    skipped: topics.length - todo.length,
    written: 0,
    failed: 0,
    unparsed: 0,
  };
  const out: Question[] = [];
  const keep = (t: Topic, texts: readonly string[]) => {
    const n = counts.get(t.topicId)!;
    const qs = toQuestions(t.topicId, texts, n);
    if (qs.length < n) note(`Topic "${t.topicId}": ${qs.length} sub-questions instead of ${n}`);
    if (qs.length) summary.topics++;
    out.push(...qs);
  };
  if (!opts.client) {
    for (const t of todo) keep(t, offlineQuestions(t, counts.get(t.topicId)!));
  } else {
    const tpl = await loadTemplate("subquestions", { dir: opts.templatesDir });
    const records = await opts.client.chatMany(
      todo.map((t) => renderTemplate(tpl, { summary: t.summary!, n: counts.get(t.topicId)! })),
      {
        parse: (text) => parseTagged(text, "q"),
        reasks: opts.reasks ?? 1,
        step: "questions",
        onProgress: opts.onProgress,
        signal: opts.signal,
      },
    );
    records.forEach((rec, i) => {
      const t = todo[i];
      if (rec.status === "failed") {
        summary.failed++;
        note(
          `Topic "${t.topicId}": sub-question generation failed (${rec.error}); re-run the step to retry`,
        );
      } else if (!rec.parsed!.ok) {
        summary.unparsed++;
        note(
          `Topic "${t.topicId}": the model's answer had no <q> question; the topic has no sub-questions`,
        );
      } else keep(t, rec.parsed!.value);
    });
  }
  await writeQuestionRows(ws, out);
  summary.written = out.length;
  return summary;
}
