/**
 * Reading a workspace's judgments in the evaluator's input form.
 *
 * @module
 */
import type { Workspace } from "@lib/store/mod.ts";
import type { ItemRatings, JudgedInputs } from "@lib/metrics/mod.ts";
import { countTokens } from "@lib/text/mod.ts";

/** Options of {@linkcode judgedInputs}. */
export interface JudgedInputsOptions {
  /** Judge whose ratings are used. Default `human`. */
  judge?: string;
  /** Passage qrels (P* = grade 3). Default `crux_pr`; `null` derives everything from ratings. */
  qrels?: string | null;
  /** Tokenizer of the density measure. Default `llama3.1`. */
  tokenizer?: "llama3.1" | "whitespace";
}

/**
 * Collects what the evaluator needs from a workspace: the rating matrix of
 * every judged item (passages and reports) in sub-question order, the CRUX
 * passage qrels, and a token counter over passage and report texts.
 *
 * @param ws The workspace.
 * @param opts See {@linkcode JudgedInputsOptions}.
 * @returns Inputs for `evaluate` from `@lib/metrics`.
 * @throws {RangeError} When the chosen qrels do not exist in the workspace.
 * @example
 * ```ts
 * import { judgedInputs } from "@lib/experiment/mod.ts";
 * import { evaluate } from "@lib/metrics/mod.ts";
 * import type { Workspace } from "@lib/store/mod.ts";
 * declare const ws: Workspace; // ratings, crux_pr qrels and the run "bm25"
 * const inputs = await judgedInputs(ws);
 * const result = evaluate(await ws.runRows("bm25"), ["Cov@10"], inputs);
 * ```
 */
export async function judgedInputs(
  ws: Workspace,
  opts: JudgedInputsOptions = {},
): Promise<JudgedInputs> {
  const judge = opts.judge ?? "human";
  const questions = await ws.questions({ kind: "subquestion" });
  const order = new Map<string, string[]>();
  for (const q of [...questions].sort((a, b) => a.ordinal - b.ordinal)) {
    if (q.kind !== "subquestion") continue;
    const list = order.get(q.topicId) ?? [];
    list.push(q.questionId);
    order.set(q.topicId, list);
  }
  const byItem = new Map<string, { topicId: string; values: Map<string, number> }>();
  for (const r of await ws.ratings({ judge })) {
    if (r.judge !== judge) continue;
    const entry = byItem.get(r.itemId) ?? { topicId: r.topicId, values: new Map() };
    entry.values.set(r.questionId, r.rating);
    byItem.set(r.itemId, entry);
  }
  const judgments: ItemRatings[] = [];
  for (const [itemId, { topicId, values }] of byItem) {
    const ids = order.get(topicId) ?? [];
    judgments.push({ topicId, itemId, ratings: ids.map((q) => values.get(q) ?? 0) });
  }
  const texts = new Map<string, string>();
  for (const p of await ws.passages()) texts.set(p.passageId, p.text);
  for (const t of await ws.topics()) if (t.summary) texts.set(`${t.topicId}:report`, t.summary);
  for (const g of await ws.generations()) texts.set(`${g.topicId}:report:${g.run}`, g.text);
  const tokenizer = opts.tokenizer ?? "llama3.1";
  const cache = new Map<string, number>();
  const tokens = (itemId: string): number => {
    let n = cache.get(itemId);
    if (n === undefined) {
      n = countTokens(texts.get(itemId) ?? "", { tokenizer });
      cache.set(itemId, n);
    }
    return n;
  };
  const qrelsName = opts.qrels === undefined ? "crux_pr" : opts.qrels;
  if (qrelsName === null) return { judgments, tokens };
  if (!(await ws.qrelsNames()).includes(qrelsName)) {
    throw new RangeError(
      `The workspace has no qrels named "${qrelsName}"; run the selection step (crux construct select) first`,
    );
  }
  const qrels = await ws.qrels(qrelsName);
  return { judgments, qrels, tokens };
}
