/**
 * The CRUX chain's run stages: `retrieve:<run>` for each retrieval run of the
 * config (default one BM25 run) and `rerank:<run>` for each reranked run.
 *
 * @module
 */
import { openAiEmbedder } from "@lib/llm/mod.ts";
import { clearRerankUsage, clearRunRows, recordRun, writeRunRows } from "@lib/store/mod.ts";
import { rerankRole, rerankRun, retrieveRun, roleClient } from "@lib/construct/mod.ts";
import { fileSha256, type StageSpec } from "@lib/pipeline/mod.ts";
import type { CruxChainEnv } from "./chain_env.ts";
import { recordRerankCell } from "./rerank_cell.ts";

/** The run stages and the runs they write. */
export interface RetrievalStages {
  specs: StageSpec[];
  /** Names of the retrieval and reranked runs, in config order. */
  runNames: string[];
  /** The stage id that writes a run (`rerank:<name>` or `retrieve:<name>`). */
  source(name: string): string;
}

/**
 * The retrieval and rerank stages of the chain.
 *
 * @param env The chain's shared part (see `cruxChainEnv`).
 * @returns The stages (each after the runs it reads), the run names and their sources.
 * @throws {Error} When a run file of a `file` run is unreadable.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxChainEnv } from "./chain_env.ts";
 * import { retrievalStages } from "./retrieval_stages.ts";
 * const env = cruxChainEnv({ name: "x", workspace: "outputs/x" }, {
 *   backends: () => () => Promise.resolve({}),
 * });
 * const r = await retrievalStages(env);
 * assert.deepEqual(r.specs.map((s) => s.id), ["retrieve:bm25"]);
 * assert.equal(r.source("bm25"), "retrieve:bm25");
 * ```
 */
export async function retrievalStages(env: CruxChainEnv): Promise<RetrievalStages> {
  const { config } = env;
  const specs: StageSpec[] = [];
  const runNames: string[] = [];
  for (const r of config.retrieve ?? [{ name: "bm25" }]) {
    const params = r.kind === "file"
      ? { ...r, digest: await fileSha256(r.path, config.workspace) }
      : { ...r };
    // The queries are the selected topics: a retrieval run reads the selection.
    const deps = ["select", ...(r.kind === "fusion" ? r.runs.map((x) => `retrieve:${x}`) : [])];
    specs.push({
      id: `retrieve:${r.name}`,
      stage: "retrieve",
      version: 1,
      params: r.kind === "dense" && r.embedder === "openai"
        ? { ...params, model: env.models }
        : params,
      deps,
      clear: (ws) => clearRunRows(ws, r.name),
      async run(ws) {
        const embedder = r.kind === "dense" && r.embedder === "openai"
          ? openAiEmbedder(
            (await roleClient(ws, "embedder", { config: config.llm, env: env.ctx.env })).client,
          )
          : undefined;
        const rows = await retrieveRun(ws, r, { embedder });
        await writeRunRows(ws, rows);
        await recordRun(ws, {
          run: r.name,
          kind: r.kind ?? "bm25",
          params,
          sources: r.kind === "fusion" ? r.runs : [],
        });
        return `${rows.length} rows`;
      },
    });
    runNames.push(r.name);
  }
  for (const r of config.rerank ?? []) {
    const role = rerankRole(r);
    specs.push({
      id: `rerank:${r.name}`,
      stage: "rerank",
      version: 1,
      params: role ? { ...r, model: env.models } : { ...r },
      deps: [`retrieve:${r.from}`],
      clear: async (ws) => {
        await clearRunRows(ws, r.name);
        await clearRerankUsage(ws, r.name);
      },
      async run(ws) {
        const c = role ? await env.client(ws, role) : undefined;
        const started = performance.now();
        const s = await rerankRun(ws, r, {
          client: c?.client,
          templatesDir: c?.templatesDir,
          signal: env.ctx.signal,
        });
        const wallMs = performance.now() - started;
        await recordRerankCell(ws, config, r, s, { wallMs, model: c?.client.model ?? null });
        const u = s.usage;
        return `${s.written} rows` +
          (u.calls ? `, ${u.calls} model calls (${u.cached} from the cache)` : "") +
          (s.counts.unparsed ? `, ${s.counts.unparsed} unparsed answers (counted)` : "");
      },
    });
    runNames.push(r.name);
  }
  const source = (name: string) =>
    specs.find((s) => s.id === `rerank:${name}`) ? `rerank:${name}` : `retrieve:${name}`;
  return { specs, runNames, source };
}
