/**
 * Typed coverage lines of the workspace's answers, the input of the scores.
 *
 * @module
 */
import type { TypedCoverageLine } from "@lib/formats/mod.ts";
import {
  readGeneratedAnswers,
  readPassageTexts,
  readSubqCoverage,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import { textKey } from "./_text_key.ts";
import { subqByTopic } from "./_typed_rows.ts";

/** Options of {@linkcode workspaceCoverageLines}. */
export interface CoverageLinesOptions {
  runs: readonly string[];
  /** The coverage judge. */
  judge: string;
  /** Origin of the sub-questions. Default `decompose`. */
  source?: string;
}

/**
 * Builds one typed coverage line per (answer, typed sub-question) from the
 * stored judgments: `system` = the run, `questionId` = the topic; `answered`
 * from the answer's judgment, `position` its span's start (when located);
 * when the answer has context passages, `retrieved` = some chunk answers it
 * and `chunkShare` = the share of its chunks that do (answers without a
 * context, such as direct prompting, have neither, so #2-#5 are null for
 * them). Pairs whose judgment is missing, unparsed or failed are left out and
 * counted.
 *
 * @param ws The workspace.
 * @param opts Runs, judge and source.
 * @returns The lines and the number of pairs left out.
 * @example
 * ```ts
 * import { workspaceCoverageLines } from "@lib/subq/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const { lines } = await workspaceCoverageLines(ws, { runs: ["rag-bm25"], judge: "lexical coverage (offline)" });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function workspaceCoverageLines(
  ws: WorkspaceLike,
  opts: CoverageLinesOptions,
): Promise<{ lines: TypedCoverageLine[]; missing: number }> {
  const subqs = await subqByTopic(ws, opts.source ?? "decompose");
  const judged = new Map((await readSubqCoverage(ws, opts.judge)).map((r) => [r.k, r]));
  const passages = await readPassageTexts(ws);
  const gens = await readGeneratedAnswers(ws, opts.runs);
  const lines: TypedCoverageLine[] = [];
  let missing = 0;
  for (const g of gens) {
    const answerKey = await textKey(g.text);
    const chunkKeys: string[] = [];
    for (const id of g.contextIds ?? []) {
      const t = passages.get(id);
      if (t !== undefined) chunkKeys.push(await textKey(t));
    }
    for (const q of subqs.get(g.topicId) ?? []) {
      if (!q.type) continue;
      const a = judged.get(`${answerKey}\0${q.text}`);
      const chunks = chunkKeys.map((k) => judged.get(`${k}\0${q.text}`));
      if (a?.answered == null || chunks.some((c) => c?.answered == null)) {
        missing++;
        continue;
      }
      const hits = chunks.filter((c) => c!.answered).length;
      lines.push({
        questionId: g.topicId,
        subQuestion: q.text,
        type: q.type,
        system: g.run,
        answered: a.answered,
        ...(chunks.length ? { retrieved: hits > 0, chunkShare: hits / chunks.length } : {}),
        ...(a.answered && a.position != null ? { position: a.position } : {}),
      });
    }
  }
  return { lines, missing };
}
