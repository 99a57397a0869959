/**
 * Provenance records of a workspace: how runs, generation runs and qrels were
 * made, what each rated item is, and which tokenizer counted the passages.
 *
 * @module
 */
import type { WorkspaceLike } from "./workspace_reads.ts";

/** What a rated item id names: a passage, a generated report of `run`, or the reference summary. */
export function ratedItem(
  itemId: string,
  topicId: string,
): { itemKind: "passage" | "report" | "reference"; run: string | null } {
  const prefix = `${topicId}:report`;
  if (itemId === prefix) return { itemKind: "reference", run: null };
  if (itemId.startsWith(prefix + ":")) {
    return { itemKind: "report", run: itemId.slice(prefix.length + 1) };
  }
  return { itemKind: "passage", run: null };
}

/** SQL filling `rated_items` from `ratings` (optionally one judge's), parsing each id once, here. */
export const RATED_ITEMS_SQL = `INSERT OR IGNORE INTO rated_items
  SELECT DISTINCT item_id, judge, topic_id,
    CASE WHEN item_id = topic_id || ':report' THEN 'reference'
         WHEN starts_with(item_id, topic_id || ':report:') THEN 'report' ELSE 'passage' END,
    CASE WHEN starts_with(item_id, topic_id || ':report:')
         THEN substr(item_id, length(topic_id) + 9) END
  FROM ratings`;

/**
 * Records what the items rated by `judge` are (`rated_items`: passage, report of
 * a run, or the reference summary), for every rating of that judge.
 *
 * @param ws The workspace.
 * @param judge The judge.
 * @example
 * ```ts
 * import { recordRatedItems } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordRatedItems(ws, "lexical");
 * // rated_items: ("t1:report:bm25", "lexical", "t1", "report", "bm25"), ...
 * ```
 */
export async function recordRatedItems(ws: WorkspaceLike, judge: string): Promise<void> {
  await ws.exec(`${RATED_ITEMS_SQL} WHERE judge = $1`, [judge]);
}

/**
 * Records how a run was made (`run_info`).
 *
 * @param ws The workspace.
 * @param info Run name, kind, parameters and the runs it was built from.
 * @example
 * ```ts
 * import { recordRun } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordRun(ws, { run: "hybrid", kind: "fusion", params: { method: "rrf", k: 60 }, sources: ["bm25", "dense"] });
 * ```
 */
export async function recordRun(
  ws: WorkspaceLike,
  info: { run: string; kind: string; params: unknown; sources?: readonly string[] },
): Promise<void> {
  await ws.exec(
    `INSERT OR REPLACE INTO run_info VALUES ($1, $2, $3::JSON, $4::JSON::VARCHAR[], now())`,
    [info.run, info.kind, JSON.stringify(info.params ?? null), JSON.stringify(info.sources ?? [])],
  );
}

/**
 * Records what a generation run is (`generation_info`).
 *
 * @param ws The workspace.
 * @param info Run, condition, context run (rag only) and backend.
 * @example
 * ```ts
 * import { recordGeneration } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordGeneration(ws, { run: "rag-bm25", condition: "rag", contextRun: "bm25", backend: "extractive" });
 * ```
 */
export async function recordGeneration(
  ws: WorkspaceLike,
  info: { run: string; condition: string; contextRun?: string | null; backend: string },
): Promise<void> {
  await ws.exec(
    `INSERT OR REPLACE INTO generation_info VALUES ($1, $2, $3, $4, now())`,
    [info.run, info.condition, info.contextRun ?? null, info.backend],
  );
}

/**
 * Records how a named qrels set was made (`qrels_info`).
 *
 * @param ws The workspace.
 * @param info Name, origin (`selection` or `import:<file>`), judge, tau and redundancy rule.
 * @example
 * ```ts
 * import { recordQrels } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordQrels(ws, { name: "crux_pr", origin: "selection", judge: "human", tau: 3, redundancy: "all" });
 * ```
 */
export async function recordQrels(
  ws: WorkspaceLike,
  info: {
    name: string;
    origin: string;
    judge?: string | null;
    tau?: number | null;
    redundancy?: string | null;
  },
): Promise<void> {
  await ws.exec(
    `INSERT OR REPLACE INTO qrels_info VALUES ($1, $2, $3, $4, $5, now())`,
    [info.name, info.origin, info.judge ?? null, info.tau ?? null, info.redundancy ?? null],
  );
}

/**
 * Records the tokenizer of the passages' token counts (`meta` key `tokenizer.passages`).
 *
 * @param ws The workspace.
 * @param tokenizer `llama3.1` or `whitespace`.
 * @example
 * ```ts
 * import { recordTokenizer } from "@lib/store/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * await recordTokenizer(ws, "llama3.1");
 * ```
 */
export async function recordTokenizer(ws: WorkspaceLike, tokenizer: string): Promise<void> {
  await ws.exec(`INSERT OR REPLACE INTO meta VALUES ('tokenizer.passages', $1)`, [tokenizer]);
}
