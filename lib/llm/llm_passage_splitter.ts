// The model-based passage splitter: documents decontextualised into self-contained passages.

import type { LlmClient } from "./llm_client.ts";
import { loadTemplate } from "./load_template.ts";
import { parseTagged } from "./parse_tagged.ts";
import { renderTemplate } from "./render_template.ts";
import type { PassageSplitter, SplitResult } from "./types.ts";

/** Pieces of at most `size` words, for documents longer than `limit` words. */
function pieces(document: string, limit: number, size: number): string[] {
  const words = document.split(/\s+/).filter(Boolean);
  if (words.length <= limit) return [document];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(" "));
  return out;
}

/**
 * The model-based passage splitter (CRUX step 1): documents longer than 1024
 * words are cut into 512-word pieces; each piece is rewritten with the
 * `decontextualize` template and its `<p>` passages kept (at most 3 per piece).
 * A piece with no passage contributes none; the document's status is then
 * `unparsed` (with the raw outputs) unless other pieces gave passages. Failed
 * calls make the document `failed`.
 *
 * @param client Client of the `generator` role.
 * @param opts `templatesDir` (default none), `maxPerPiece` (default 3), `longWords` (default 1024),
 *   `pieceWords` (default 512).
 * @returns A splitter named after the model.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { type LlmClient, llmPassageSplitter, type ProgressFn } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * declare const onProgress: ProgressFn;
 * const documents = ["Storm hits the coast. Thousands lose power.", "Ann won the race."];
 * const results = await llmPassageSplitter(client).split(documents, { onProgress });
 * ```
 */
export function llmPassageSplitter(
  client: LlmClient,
  opts: { templatesDir?: string; maxPerPiece?: number; longWords?: number; pieceWords?: number } =
    {},
): PassageSplitter {
  return {
    name: client.model,
    async split(documents, { signal, onProgress } = {}): Promise<SplitResult[]> {
      const template = await loadTemplate("decontextualize", { dir: opts.templatesDir });
      const owner: number[] = [];
      const requests = documents.flatMap((d, i) =>
        pieces(d, opts.longWords ?? 1024, opts.pieceWords ?? 512).map((piece) => {
          owner.push(i);
          return renderTemplate(template, { document: piece });
        })
      );
      const records = await client.chatMany(requests, {
        signal,
        onProgress,
        step: "decontextualize",
        parse: (t) => parseTagged(t, "p"),
      });
      const results: SplitResult[] = documents.map(() => ({ passages: [], status: "ok", raw: "" }));
      const empty: string[][] = documents.map(() => []);
      records.forEach((r, k) => {
        const res = results[owner[k]];
        if (r.status === "failed") res.status = "failed";
        else if (r.parsed?.ok) {
          res.passages.push(...(r.parsed.value as string[]).slice(0, opts.maxPerPiece ?? 3));
        } else empty[owner[k]].push(r.text);
      });
      results.forEach((res, i) => {
        if (empty[i].length) {
          res.raw = empty[i].join("\n---\n");
          if (res.status === "ok" && !res.passages.length) res.status = "unparsed";
        }
      });
      return results;
    },
  };
}
