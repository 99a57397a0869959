/**
 * RAG variants that use core sub-questions (Xie et al.), as generation runs.
 *
 * @module
 */
import { type Generator, type LlmClient, loadTemplate, renderTemplate } from "@lib/llm/mod.ts";
import { Bm25Index } from "@lib/retrieval/mod.ts";
import { oracleBudgets } from "@lib/generate/mod.ts";
import { countTokens, splitSentences } from "@lib/text/mod.ts";
import {
  readPassagesById,
  readTopics,
  readWorkspaceQrels,
  recordFailedGenerations,
  recordGeneration,
  recordRun,
  replaceRunRows,
  type Workspace,
  writeGenerationRows,
} from "@lib/store/mod.ts";
import type { Generation, RunRow } from "@lib/types/mod.ts";
import { subqByTopic } from "./_typed_rows.ts";
import { CORE_DEFINITION, top, withinBudget } from "./_variant_parts.ts";
import { lexicalCoverage } from "./lexical_coverage.ts";
import { judgeCoverage } from "./judge_coverage.ts";

/** The four variants. */
export const CORE_VARIANTS = ["def", "query", "retrieval", "e2e"] as const;
/** One variant. */
export type CoreVariant = (typeof CORE_VARIANTS)[number];

/** Options of {@linkcode generateCoreVariants}. */
export interface CoreVariantsOptions {
  /** Variants to build. Default all four. */
  variants?: readonly CoreVariant[];
  /** Writes the reports (the extractive generator offline, `llmGenerator` online). */
  generator: Generator;
  /** Model client of the e2e composition; offline (answers joined) without it. */
  client?: LlmClient;
  /** Coverage judge of the `retrieval` rerank; the offline lexical judge without it. */
  judge?: LlmClient;
  templatesDir?: string;
  /** Origin of the typed sub-questions. Default `decompose`. */
  source?: string;
  /** Run name prefix. Default `subq-core`: runs `subq-core-def`, ... */
  prefix?: string;
  /** Pool depth per query of the `retrieval` variant and passages per core sub-question of `e2e`. Default 10 and 3. */
  depth?: number;
  perQuestion?: number;
  /** BM25 parameters. Defaults 0.9 and 0.4. */
  k1?: number;
  b?: number;
  signal?: AbortSignal;
  /**
   * Told of each topic whose report could not be written (a failed model call):
   * it gets no generation and no run rows, and is recorded as failed for the run.
   */
  onFailure?: (failure: { run: string; topicId: string; error: string }) => void;
}

/**
 * Builds, for every topic with an oracle budget (top-k = |P*|, at most the
 * token count of P*, as the baseline pipelines) and typed core sub-questions,
 * the variants as retrieval runs (`runs`, `run_info`) and generation runs
 * (`generations`, `generation_info` with condition = the variant and context
 * run = its retrieval run), both named `{prefix}-{variant}`:
 * - `def`: BM25 for the request plus the definition of core sub-questions;
 * - `query`: BM25 for the request plus the core sub-questions themselves;
 * - `retrieval`: BM25 for the request and for each core sub-question (`depth`
 *   each), pooled, reranked by the number of core sub-questions a passage
 *   answers (the coverage judge; ties by best rank), top k;
 * - `e2e`: each core sub-question answered from its own top `perQuestion`
 *   passages (its share of the budget), then the answers composed into one
 *   report (`subq_compose` online, told the budget in words: the word count
 *   of P*; joined in core order offline).
 *
 * @param ws The workspace (passages, qrels `crux_pr`, classified sub-questions).
 * @param opts Generator, variants and parameters.
 * @returns The generation runs written.
 * @example
 * ```ts
 * import { generateCoreVariants } from "@lib/subq/mod.ts";
 * import { extractiveGenerator } from "@lib/llm/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await generateCoreVariants(ws, { generator: extractiveGenerator() }); // ["subq-core-def", ...]
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function generateCoreVariants(
  ws: Workspace,
  opts: CoreVariantsOptions,
): Promise<string[]> {
  const variants = opts.variants ?? CORE_VARIANTS;
  const prefix = opts.prefix ?? "subq-core";
  const passages = await readPassagesById(ws);
  const texts = new Map(passages.map((p) => [p.id, p.text]));
  const budgets = oracleBudgets(
    await readWorkspaceQrels(ws, "crux_pr"),
    new Map(passages.map((p) => [p.id, p.tokens ?? countTokens(p.text)])),
  );
  const index = await Bm25Index.buildAsync(passages.map((p) => ({ id: p.id, text: p.text })), {
    k1: opts.k1 ?? 0.9,
    b: opts.b ?? 0.4,
  });
  const subqs = await subqByTopic(ws, opts.source ?? "decompose");
  const requests = new Map((await readTopics(ws)).map((r) => [r.topicId, r.request]));
  const compose = opts.client
    ? await loadTemplate("subq_compose", { dir: opts.templatesDir })
    : undefined;
  const written: string[] = [];
  for (const variant of variants) {
    const run = `${prefix}-${variant}`;
    const runRows: RunRow[] = [];
    const gens: Generation[] = [];
    const failedTopics: string[] = [];
    const fail = (topicId: string, error: string | undefined) => {
      failedTopics.push(topicId);
      opts.onFailure?.({ run, topicId, error: error ?? "the call failed" });
    };
    topics: for (const [topicId, budget] of budgets) {
      const request = requests.get(topicId);
      const core = (subqs.get(topicId) ?? []).filter((q) => q.type === "core").map((q) => q.text);
      if (!request || !core.length) continue;
      let ids: string[];
      let text: string;
      let backend = opts.generator.name;
      if (variant === "e2e") {
        const per = opts.perQuestion ?? 3;
        const share = Math.max(1, Math.floor(budget.maxTokens / core.length));
        const answers: string[] = [];
        ids = [];
        for (const q of core) {
          const got = top(index, q, per);
          ids.push(...got.filter((id) => !ids.includes(id)));
          const out = await opts.generator.generate(
            { request: q, contexts: got.map((id) => texts.get(id)!), maxTokens: share },
            { signal: opts.signal },
          );
          if (out.status === "failed") {
            fail(topicId, out.error);
            continue topics;
          }
          if (out.text.trim()) answers.push(out.text.trim());
        }
        if (compose && opts.client) {
          // The prompt states the length in words: the words of P* (scaled down when the
          // token cap clipped the budget); the token budget caps the call.
          const words = budget.oracleIds.reduce(
            (n, id) => n + (texts.get(id) ?? "").split(/\s+/).filter(Boolean).length,
            0,
          );
          const scale = budget.uncappedTokens ? budget.maxTokens / budget.uncappedTokens : 1;
          const rec = await opts.client.chat(
            renderTemplate(compose, {
              request,
              answers: answers.map((a, i) => `${i + 1}. ${a}`).join("\n"),
              budget: Math.max(1, Math.floor(words * scale)),
            }, { params: { maxTokens: budget.maxTokens } }),
            { signal: opts.signal, step: "subq-compose" },
          );
          if (rec.status === "failed") {
            fail(topicId, rec.error);
            continue topics;
          }
          text = rec.text.trim();
          backend = rec.model;
        } else text = withinBudget(answers.flatMap((a) => splitSentences(a)), budget.maxTokens);
      } else {
        const query = variant === "def"
          ? `${request} ${CORE_DEFINITION}`
          : variant === "query"
          ? `${request} ${core.join(" ")}`
          : request;
        if (variant === "retrieval") {
          const depth = opts.depth ?? 10;
          const lists = [top(index, request, depth), ...core.map((q) => top(index, q, depth))];
          const pool = [...new Set(lists.flat())];
          const rank = (id: string) =>
            Math.min(...lists.map((l) => (l.indexOf(id) + 1) || Infinity));
          const answered = await coreCoverage(pool, core, texts, opts);
          ids = pool.sort((a, b) => answered.get(b)! - answered.get(a)! || rank(a) - rank(b))
            .slice(0, budget.k);
        } else ids = top(index, query, budget.k);
        const out = await opts.generator.generate(
          {
            request: query,
            contexts: ids.map((id) => texts.get(id)!),
            maxTokens: budget.maxTokens,
          },
          { signal: opts.signal },
        );
        if (out.status === "failed") {
          fail(topicId, out.error);
          continue topics;
        }
        text = out.text;
        backend = out.backend;
      }
      ids.forEach((id, i) =>
        runRows.push({ run, topicId, docId: id, rank: i + 1, score: ids.length - i })
      );
      gens.push({
        run,
        topicId,
        text,
        condition: `subq-core-${variant}`,
        backend,
        contextIds: ids,
        tokens: countTokens(text),
      });
    }
    await replaceRunRows(ws, run, runRows);
    await writeGenerationRows(ws, gens);
    await recordFailedGenerations(ws, run, failedTopics);
    await recordRun(ws, {
      run,
      kind: `subq-core-${variant}`,
      params: { variant, depth: opts.depth ?? 10, perQuestion: opts.perQuestion ?? 3 },
      sources: [],
    });
    await recordGeneration(ws, {
      run,
      condition: `subq-core-${variant}`,
      contextRun: run,
      backend: opts.generator.name,
    });
    written.push(run);
  }
  return written;
}

/** Number of core sub-questions each pooled passage answers. */
async function coreCoverage(
  pool: readonly string[],
  core: readonly string[],
  texts: ReadonlyMap<string, string>,
  opts: CoreVariantsOptions,
): Promise<Map<string, number>> {
  const out = new Map(pool.map((id) => [id, 0]));
  if (!opts.judge) {
    for (const id of pool) {
      out.set(id, core.filter((q) => lexicalCoverage(q, texts.get(id)!).answered).length);
    }
    return out;
  }
  const pairs = pool.flatMap((id) =>
    core.map((q) => ({ id, subQuestion: q, text: texts.get(id)! }))
  );
  const results = await judgeCoverage(pairs, {
    client: opts.judge,
    templatesDir: opts.templatesDir,
    signal: opts.signal,
  });
  results.forEach((r) => {
    if (r.answered) out.set(r.id, out.get(r.id)! + 1);
  });
  return out;
}
