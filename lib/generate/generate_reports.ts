// Report generation under the oracle budget: RAG, direct and oracle-context reports, stored as
// generations with their contexts and token counts.

import {
  extractiveGenerator,
  type Generator,
  type LlmClient,
  loadTemplate,
  type ProgressFn,
  renderTemplate,
} from "@lib/llm/mod.ts";
import type { Generation } from "@lib/types/mod.ts";
import { countTokens } from "@lib/text/mod.ts";
import {
  failedGenerations,
  readGeneratedTopics,
  readPassages,
  readTopics,
  readWorkspaceQrels,
  readWorkspaceRun,
  recordContextGaps,
  recordFailedGenerations,
  recordGeneration,
  type WorkspaceLike,
  writeGenerationRows,
} from "@lib/store/mod.ts";
import { oracleBudgets } from "./oracle_budget.ts";
import {
  countGenerationFlags,
  describeGenerationFlags,
  type GenerationFlag,
} from "./generation_flag.ts";
import {
  type GenerationCondition,
  type MissingTextRule,
  planGenerations,
  type PlannedGeneration,
} from "./plan_generations.ts";

/** Sampling settings of report generation (CRUX protocol), recorded with every call. */
export const GENERATION_PARAMS = { temperature: 0.7, topP: 0.95 } as const;

/** Options of {@link generateReports}. */
export interface GenerateReportsOptions {
  /** Name under which the reports are stored (`generations.run`). */
  run: string;
  /** `rag` (needs `context`), `direct` or `oracle-context`. */
  condition: GenerationCondition;
  /** Retrieval run in the workspace supplying the contexts (`rag`). */
  context?: string;
  /** Model client; reports are written by the `rag_report` / `direct_report` templates. */
  client?: LlmClient;
  /** Offline generator used without a client. Default: the extractive generator. */
  generator?: Generator;
  /** Folder of replacement prompt templates. Default: the built-in ones. */
  templatesDir?: string;
  /** Only these topics. Default: every topic with a budget. */
  topics?: readonly string[];
  /** Also store the human summaries as run `oracle-result`. Default true. */
  storeHuman?: boolean;
  /** Passage qrels defining P*. Default `crux_pr`. */
  qrelsName?: string;
  /** Context passages without text: `keep` the shorter context (default) or `fill` from lower ranks. */
  missingText?: MissingTextRule;
  /** Tokenizer of budgets and stored counts. Default `llama3.1`. */
  tokenizer?: "llama3.1" | "whitespace";
  /** Cap on the report length in tokens. Default 2,500 (the CRUX paper's); `Infinity` lifts it. */
  budgetCap?: number;
  onProgress?: ProgressFn;
  onNote?: (message: string) => void;
  signal?: AbortSignal;
}

/** What {@link generateReports} did. */
export interface GenerateSummary {
  run: string;
  condition: GenerationCondition;
  backend: string;
  /** Reports stored in this run. */
  written: number;
  /** Topics that already had a report under `run`. */
  skipped: number;
  /** Reports whose call failed (not stored; re-run to retry). */
  failed: number;
  /** Human summaries stored as `oracle-result` in this run. */
  human: number;
  /** Reports written now that are empty, only a number or near-empty (see `generationFlag`). */
  flags: Partial<Record<GenerationFlag, number>>;
  /** Topics whose context lacks passages without text, with the ids left out (and filled). */
  incomplete: { topicId: string; k: number; missing: string[]; filled: string[] }[];
}

const numbered = (contexts: readonly string[]) =>
  contexts.map((c, i) => `[${i + 1}] ${c}`).join("\n\n");

/**
 * Generates one report per topic under the CRUX oracle budget (top-k = |P*|,
 * at most the Llama-3.1 token count of P*, capped at 2,500 tokens as in the
 * paper with the clipped topics noted, the prompt told the length) for a
 * retrieval context run (`rag`), without context (`direct`) or from P*
 * (`oracle-context`), and stores them in `generations`. Model calls use
 * temperature 0.7 and top-p 0.95 and are cached; offline, the extractive
 * generator fills the budget with context sentences in rank order. Topics that
 * already have a report under `run` are skipped; failed calls are not stored.
 * The human summaries are stored as run `oracle-result` (condition
 * `oracle-result`, backend `human`).
 *
 * @param ws The experiment workspace (after `crux construct select`).
 * @param opts Run name, condition, context run, backend and callbacks.
 * @returns Counts of written, skipped and failed reports.
 * @throws {RangeError} When no topic has a budget (selection has not run) or the context run is empty.
 * @example
 * ```ts
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { generateReports } from "@lib/generate/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // P*, which sets each topic's budget
 * await ws.upsert("runs", await retrieveRun(ws, { name: "bm25", k: 100 }));
 * await generateReports(ws, { run: "bm25-extractive", condition: "rag", context: "bm25" });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function generateReports(
  ws: WorkspaceLike,
  opts: GenerateReportsOptions,
): Promise<GenerateSummary> {
  const tk = { tokenizer: opts.tokenizer };
  const topics = await readTopics(ws, opts.topics);
  const passages = await readPassages(ws);
  const texts = new Map<string, string>();
  const tokens = new Map<string, number>();
  for (const list of passages.values()) {
    for (const p of list) {
      texts.set(p.passageId, p.text);
      tokens.set(p.passageId, p.tokens ?? countTokens(p.text, tk));
    }
  }
  const budgets = oracleBudgets(await readWorkspaceQrels(ws, opts.qrelsName ?? "crux_pr"), tokens, {
    cap: opts.budgetCap,
  });
  if (budgets.size === 0) {
    throw new RangeError(
      "Cannot generate reports: no topic has required passages; run `crux construct select` first",
    );
  }
  const run = opts.condition === "rag" ? await readWorkspaceRun(ws, opts.context ?? "") : undefined;
  if (opts.condition === "rag" && run!.length === 0) {
    throw new RangeError(
      `Cannot generate reports: the workspace has no run "${opts.context}"; import or retrieve it first`,
    );
  }
  const done = new Set(
    await readGeneratedTopics(ws, opts.run),
  );
  const plan = planGenerations(opts.condition, {
    topics,
    budgets,
    text: (id) => texts.get(id),
    run,
    missingText: opts.missingText,
  });
  for (const t of plan.topicsWithoutRanking) {
    opts.onNote?.(`Topic "${t}" has no ranking in run "${opts.context}"; no report`);
  }
  const incomplete = plan.items.filter((i) => i.missingIds.length).map((i) => ({
    topicId: i.topicId,
    k: i.missingIds.length + i.contextIds.length - i.filledIds.length,
    missing: i.missingIds,
    filled: i.filledIds,
  }));
  if (incomplete.length) {
    const rule = (opts.missingText ?? "keep") === "fill" && opts.condition === "rag"
      ? "their places filled from lower ranks"
      : "the shorter context kept";
    const worst = incomplete.map((i) => `${i.topicId} ${i.missing.length}/${i.k}`).join(", ");
    opts.onNote?.(
      `Run "${opts.run}": ${incomplete.length} of ${plan.items.length} contexts hold passages ` +
        `that have no text in the workspace (${rule}; missing/k per topic: ${worst})`,
    );
  }
  const todo = plan.items.filter((i) => !done.has(i.topicId));
  const clipped = todo.filter((i) => budgets.get(i.topicId)?.uncappedTokens !== undefined);
  if (clipped.length) {
    const cap = budgets.get(clipped[0].topicId)!.maxTokens;
    opts.onNote?.(
      `${clipped.length} of ${todo.length} topics have an oracle budget above the ${cap}-token cap and are clipped to it (${
        clipped.map((i) => i.topicId).join(", ")
      })`,
    );
  }
  const backend = opts.client
    ? opts.client.model
    : (opts.generator ?? extractiveGenerator(tk)).name;
  const summary: GenerateSummary = {
    run: opts.run,
    condition: opts.condition,
    backend,
    written: 0,
    skipped: plan.items.length - todo.length,
    failed: 0,
    human: 0,
    flags: {},
    incomplete,
  };
  const out: Generation[] = [];
  // An empty context list is stored as NULL (the store's appender cannot type an empty list).
  const store = (item: PlannedGeneration, text: string) =>
    out.push({
      run: opts.run,
      topicId: item.topicId,
      text,
      condition: item.condition,
      backend,
      ...(item.contextIds.length ? { contextIds: item.contextIds } : {}),
      tokens: countTokens(text, tk),
    });
  if (opts.client) {
    const rag = await loadTemplate("rag_report", { dir: opts.templatesDir });
    const direct = await loadTemplate("direct_report", { dir: opts.templatesDir });
    const params = { ...GENERATION_PARAMS };
    const requests = todo.map((item) =>
      item.condition === "direct"
        ? renderTemplate(direct, { request: item.request, budget: item.maxTokens }, {
          params: { ...params, maxTokens: item.maxTokens },
        })
        : renderTemplate(rag, {
          request: item.request,
          context: numbered(item.contexts),
          budget: item.maxTokens,
        }, {
          params: { ...params, maxTokens: item.maxTokens },
        })
    );
    const records = await opts.client.chatMany(requests, {
      step: "generate",
      onProgress: opts.onProgress,
      signal: opts.signal,
    });
    records.forEach((rec, i) => {
      if (rec.status === "failed") {
        summary.failed++;
        opts.onNote?.(
          `Topic "${todo[i].topicId}": generation failed (${rec.error}); re-run to retry`,
        );
      } else store(todo[i], rec.text.trim());
    });
  } else {
    const generator = opts.generator ?? extractiveGenerator(tk);
    for (const item of todo) {
      const g = await generator.generate(
        { request: item.request, contexts: item.contexts, maxTokens: item.maxTokens },
        { signal: opts.signal },
      );
      if (g.status === "failed") {
        summary.failed++;
        opts.onNote?.(`Topic "${item.topicId}": generation failed (${g.error}); re-run to retry`);
      } else store(item, g.text);
    }
  }
  await writeGenerationRows(ws, out);
  await recordContextGaps(ws, opts.run, incomplete);
  // The run's topics without a report because their call failed: earlier failures
  // not attempted now stay recorded, so the judge never averages over a partial run.
  const attempted = new Set(todo.map((t) => t.topicId));
  await recordFailedGenerations(ws, opts.run, [
    ...(await failedGenerations(ws, opts.run)).filter((t) => !attempted.has(t)),
    ...todo.filter((t) => !out.some((g) => g.topicId === t.topicId)).map((t) => t.topicId),
  ]);
  await recordGeneration(ws, {
    run: opts.run,
    condition: opts.condition,
    contextRun: opts.condition === "rag" ? opts.context : null,
    backend,
  });
  summary.written = out.length;
  const budgetOf = new Map(todo.map((t) => [t.topicId, t.maxTokens]));
  summary.flags = countGenerationFlags(
    out.map((g) => ({ text: g.text, tokens: g.tokens!, budget: budgetOf.get(g.topicId) })),
  );
  const flagged = describeGenerationFlags(summary.flags);
  if (flagged) {
    opts.onNote?.(
      `Run "${opts.run}": ${flagged} of ${out.length} reports; they are not reports and ` +
        "distort Cov(y) and Den(y). Check the generator model and prompt",
    );
  }
  if (opts.storeHuman ?? true) summary.human = await storeHumanReports(ws, budgets, tk);
  return summary;
}

async function storeHumanReports(
  ws: WorkspaceLike,
  budgets: ReadonlyMap<string, unknown>,
  tk: { tokenizer?: "llama3.1" | "whitespace" },
): Promise<number> {
  const have = new Set(
    await readGeneratedTopics(ws, "oracle-result"),
  );
  const rows: Generation[] = (await readTopics(ws))
    .filter((t) => t.summary && budgets.has(t.topicId) && !have.has(t.topicId))
    .map((t) => ({
      run: "oracle-result",
      topicId: t.topicId,
      text: t.summary!,
      condition: "oracle-result",
      backend: "human",
      tokens: countTokens(t.summary!, tk),
    }));
  await writeGenerationRows(ws, rows);
  await recordGeneration(ws, {
    run: "oracle-result",
    condition: "oracle-result",
    backend: "human",
  });
  return rows.length;
}

/**
 * Stores each topic's human summary as a report of run `oracle-result`
 * (condition `oracle-result`, backend `human`) for the topics that have required
 * passages, as `generateReports` does by default; topics already stored are kept.
 *
 * @param ws The workspace.
 * @param opts `qrelsName` (default `crux_pr`), `tokenizer` (default `llama3.1`).
 * @returns Summaries stored now.
 * @example
 * ```ts
 * import { storeHumanSummaries } from "@lib/generate/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await storeHumanSummaries(ws);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function storeHumanSummaries(
  ws: WorkspaceLike,
  opts: { qrelsName?: string; tokenizer?: "llama3.1" | "whitespace" } = {},
): Promise<number> {
  const tk = { tokenizer: opts.tokenizer };
  const tokens = new Map<string, number>();
  for (const list of (await readPassages(ws)).values()) {
    for (const p of list) tokens.set(p.passageId, p.tokens ?? countTokens(p.text, tk));
  }
  const budgets = oracleBudgets(await readWorkspaceQrels(ws, opts.qrelsName ?? "crux_pr"), tokens);
  return await storeHumanReports(ws, budgets, tk);
}
