/**
 * The classification stage over a workspace: a type for every sub-question.
 *
 * @module
 */
import { readTopics, setSubqType, type WorkspaceLike, writeSubqFailures } from "@lib/store/mod.ts";
import type { Decomposition } from "@lib/formats/mod.ts";
import { classifySubquestions } from "./classify_subquestions.ts";
import { subqByTopic } from "./_typed_rows.ts";
import type { SubqStepOptions } from "./types.ts";

/** What {@linkcode classifyTopics} did. */
export interface ClassifyTopicsSummary {
  topics: number;
  typed: number;
  failed: number;
  backend: string;
  /** Sub-questions per type over the typed topics. */
  counts: Record<string, number>;
}

/**
 * Types the sub-questions of every topic of `source` that has untyped ones,
 * few-shot with `examples` (a labelled decomposition file's entries; default
 * the built-in examples, `[]` for zero-shot) or with the offline heuristic.
 * Failed or unparsed topics stay untyped and get a `subq_failures` row.
 *
 * @param ws The workspace (after {@linkcode decomposeTopics}).
 * @param opts Source (default `decompose`), examples, backend options.
 * @returns Counts, the backend and the type distribution.
 * @example
 * ```ts
 * import { classifyTopics } from "@lib/subq/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * (await classifyTopics(ws)).counts; // { core: .., background: .., "follow-up": .. }
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function classifyTopics(
  ws: WorkspaceLike,
  opts: SubqStepOptions & {
    source?: string;
    examples?: readonly Decomposition[];
    onNote?: (message: string) => void;
  } = {},
): Promise<ClassifyTopicsSummary> {
  const source = opts.source ?? "decompose";
  const requests = new Map((await readTopics(ws)).map((t) => [t.topicId, t.request]));
  const todo = [...(await subqByTopic(ws, source))].filter(([, qs]) => qs.some((q) => !q.type));
  const ordinals = new Map(todo.map(([topicId, qs]) => [topicId, qs.map((q) => q.ordinal)]));
  const results = await classifySubquestions(
    todo.map(([topicId, qs]) => ({
      id: topicId,
      question: requests.get(topicId) ?? "",
      subQuestions: qs.map((q) => q.text),
    })),
    opts,
  );
  const summary: ClassifyTopicsSummary = {
    topics: 0,
    typed: 0,
    failed: 0,
    backend: "",
    counts: {},
  };
  for (const r of results) {
    summary.backend = r.backend || summary.backend;
    if (r.status !== "ok") {
      const untyped = r.types.filter((t) => t === null).length;
      summary.failed++;
      await writeSubqFailures(ws, [
        {
          topicId: r.id,
          source,
          step: "classify",
          status: r.status,
          raw: r.raw ?? "",
          backend: r.backend,
        },
      ]);
      opts.onNote?.(
        `Topic "${r.id}": classification ${r.status} for ${untyped} of ${r.types.length} sub-questions; they stay untyped`,
      );
    } else summary.topics++;
    for (let i = 0; i < r.types.length; i++) {
      const type = r.types[i];
      if (type === null) continue;
      await setSubqType(ws, {
        topicId: r.id,
        source,
        ordinal: ordinals.get(r.id)![i],
        type,
        classifier: r.backend,
      });
      summary.counts[type] = (summary.counts[type] ?? 0) + 1;
      summary.typed++;
    }
  }
  return summary;
}
