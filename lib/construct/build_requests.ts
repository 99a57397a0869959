// Construction step `requests`: writes each topic's report request from its reference summary.

import { type LlmClient, loadTemplate, parseTagged, renderTemplate } from "@lib/llm/mod.ts";
import type { Topic } from "@lib/types/mod.ts";
import { splitSentences } from "@lib/text/mod.ts";
import { readTopics, type WorkspaceLike, writeTopicRows } from "@lib/store/mod.ts";
import type { StepOptions, StepSummary } from "./types.ts";

/** Options of {@link buildRequests}. */
export interface BuildRequestsOptions extends StepOptions {
  /** Model client; without it an offline request is derived from the summary's first sentence. */
  client?: LlmClient;
  /** Folder of replacement prompt templates. Default: the built-in ones. */
  templatesDir?: string;
  /** Replace requests that are already set. Default false (such topics are skipped). */
  overwrite?: boolean;
  /** Re-asks (at temperature 0.2) when the answer has no `<r>` tag. Default 1. */
  reasks?: number;
}

/**
 * The offline stand-in for an LLM-written request: a fixed frame around the
 * summary's first sentence (or the title). Deterministic; labelled offline by
 * the caller's backend name.
 */
function offlineRequest(topic: Topic): string {
  const lead = topic.title?.trim() || splitSentences(topic.summary ?? "")[0]?.trim() ||
    topic.topicId;
  return `Write a report on the following subject, covering what happened, who was involved, ` +
    `why it matters and what is expected next: ${lead}`;
}

/**
 * Construction step `requests`: writes an open-ended report request (about 50
 * words, `<r>` tag) for every topic that has a human summary and no request
 * yet, with the `report_request` template (one in-context example). Without a
 * client, an offline request is framed around the summary's first sentence.
 * A failed or tagless answer leaves the topic unchanged (noted; a re-run retries
 * failed calls).
 *
 * @param ws The experiment workspace.
 * @param opts Backend and callbacks; `overwrite` (default false) replaces existing requests.
 * @returns What was done.
 * @example
 * ```ts
 * import { buildRequests } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await buildRequests(ws, {});
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function buildRequests(
  ws: WorkspaceLike,
  opts: BuildRequestsOptions = {},
): Promise<StepSummary> {
  const note = opts.onNote ?? (() => {});
  const topics = await readTopics(ws, opts.topics);
  const todo = topics.filter((t) => t.summary && (opts.overwrite || !t.request.trim()));
  const summary: StepSummary = {
    step: "requests",
    topics: 0,
    skipped: topics.length - todo.length,
    written: 0,
    failed: 0,
    unparsed: 0,
  };
  const updated: Topic[] = [];
  if (!opts.client) {
    for (const t of todo) updated.push({ ...t, request: offlineRequest(t) });
  } else {
    const tpl = await loadTemplate("report_request", { dir: opts.templatesDir });
    const records = await opts.client.chatMany(
      todo.map((t) => renderTemplate(tpl, { summary: t.summary! })),
      {
        parse: (text) => parseTagged(text, "r"),
        reasks: opts.reasks ?? 1,
        step: "requests",
        onProgress: opts.onProgress,
        signal: opts.signal,
      },
    );
    records.forEach((rec, i) => {
      const t = todo[i];
      if (rec.status === "failed") {
        summary.failed++;
        note(
          `Topic "${t.topicId}": request generation failed (${rec.error}); re-run the step to retry`,
        );
      } else if (!rec.parsed!.ok) {
        summary.unparsed++;
        note(
          `Topic "${t.topicId}": the model's answer had no <r> request; the topic keeps no request`,
        );
      } else {
        updated.push({ ...t, request: rec.parsed!.value[0].replace(/\s+/g, " ") });
      }
    });
  }
  await writeTopicRows(ws, updated);
  summary.topics = updated.length;
  summary.written = updated.length;
  return summary;
}
