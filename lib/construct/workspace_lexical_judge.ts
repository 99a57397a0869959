/**
 * The offline answerability judge with one IDF table per workspace.
 *
 * @module
 */
import { type AnswerabilityJudge, lexicalJudge } from "@lib/llm/mod.ts";
import { readPassages, type WorkspaceLike } from "@lib/store/mod.ts";

/**
 * The lexical judge (backend name `lexical`) with IDF computed over every
 * passage of the workspace, read when it first rates. A judge without a fixed
 * corpus takes IDF from the contexts of each call, so a rating would depend on
 * which other pairs happened to be judged with it; with the workspace's pooled
 * passages the same (question, context) pair always gets the same rating,
 * whether reports are judged all at once or a pipeline at a time.
 *
 * @param ws The workspace whose passages give the IDF statistics.
 * @returns A judge with the same interface as the model-based one.
 * @example
 * ```ts
 * import { workspaceLexicalJudge } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * const judge = workspaceLexicalJudge(ws);
 * const [r] = await judge.rate([{ id: "1", question: "Who won?", context: "Ann won." }]);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function workspaceLexicalJudge(ws: WorkspaceLike): AnswerabilityJudge {
  let inner: Promise<AnswerabilityJudge> | undefined;
  const load = async () => {
    const corpus = [...(await readPassages(ws)).values()].flat().map((p) => p.text);
    return lexicalJudge(corpus.length ? { corpus } : {});
  };
  return {
    name: "lexical",
    async rate(pairs, opts) {
      inner ??= load();
      return await (await inner).rate(pairs, opts);
    },
  };
}
