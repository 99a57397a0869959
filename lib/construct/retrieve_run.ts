/**
 * First-stage retrieval runs of an experiment: BM25, dense, fused and imported.
 *
 * @module
 */
import type { RunRow } from "@lib/types/mod.ts";
import type { Workspace } from "@lib/store/mod.ts";
import { readRun } from "@lib/formats/mod.ts";
import {
  Bm25Index,
  bm25Run,
  combMnz,
  type CombOptions,
  combSum,
  type Embedder,
  rrf,
} from "@lib/retrieval/mod.ts";
import { readPassages, readTopics, readWorkspaceQrels } from "@lib/store/mod.ts";
import { denseRows } from "./_dense_rows.ts";

/** A BM25 run over the workspace's pooled passages (`kind` absent or `bm25`). */
export interface Bm25RetrievalConfig {
  name: string;
  kind?: "bm25";
  /** Passages per topic. Default 100. */
  k?: number;
  /** BM25 parameters. Defaults 0.9 and 0.4 (Lucene/Anserini). */
  k1?: number;
  b?: number;
}

/** A dense run over the pooled passages: cosine of embeddings of the request and the passages. */
export interface DenseRetrievalConfig {
  name: string;
  kind: "dense";
  /**
   * `tfidf`: the offline `tfidfEmbedder` fitted on the pooled passages;
   * `openai`: the embedder role of the LLM layer (an embeddings endpoint, cached).
   */
  embedder: "tfidf" | "openai";
  /** Passages per topic. Default 100. */
  k?: number;
  /** Hashed dimensions of the `tfidf` embedder. Default 1024. */
  dimensions?: number;
}

/** A fusion of earlier runs of the experiment. */
export interface FusionRetrievalConfig {
  name: string;
  kind: "fusion";
  /** Runs fused (names of earlier `retrieve` entries). */
  runs: string[];
  /** `rrf` (reciprocal rank fusion), `combsum` or `combmnz`. */
  method: "rrf" | "combsum" | "combmnz";
  /** RRF rank offset (only `rrf`). Default 60. */
  k?: number;
  /** Top documents of each fused run that count. Default all. */
  depth?: number;
  /** Score normalisation of `combsum` / `combmnz`. Default `minmax`. */
  normalization?: CombOptions["normalization"];
}

/** A run imported from a TREC run file (`topic Q0 docid rank score tag`); the tag is replaced by `name`. */
export interface FileRetrievalConfig {
  name: string;
  kind: "file";
  /** The run file (absolute after `parseExperimentConfig`; relative paths resolve against the cwd). */
  path: string;
}

/** A first-stage retrieval run of an experiment. */
export type RetrievalConfig =
  | Bm25RetrievalConfig
  | DenseRetrievalConfig
  | FusionRetrievalConfig
  | FileRetrievalConfig;

/** Options of {@linkcode retrieveRun}. */
export interface RetrieveRunOptions {
  /** Embedder of dense runs with `embedder: "openai"`, e.g. `openAiEmbedder(client)`. */
  embedder?: Embedder;
}

/** Topics with crux qrels and a request, as queries. */
async function queries(ws: Workspace): Promise<{ topicId: string; text: string }[]> {
  const kept = new Set((await readWorkspaceQrels(ws, "crux_pr")).map((q) => q.topicId));
  return (await readTopics(ws))
    .filter((t) => kept.has(t.topicId) && t.request)
    .map((t) => ({ topicId: t.topicId, text: t.request }));
}

async function fused(ws: Workspace, cfg: FusionRetrievalConfig): Promise<RunRow[]> {
  const inputs: RunRow[][] = [];
  for (const name of cfg.runs) {
    const rows = await ws.runRows(name);
    if (rows.length === 0) {
      throw new RangeError(
        `Cannot fuse run "${name}" into "${cfg.name}": the workspace has no run "${name}"; list it earlier in "retrieve"`,
      );
    }
    inputs.push(rows);
  }
  const run = cfg.name;
  if (cfg.method === "rrf") return rrf(inputs, { k: cfg.k, depth: cfg.depth, run });
  const opts = { depth: cfg.depth, normalization: cfg.normalization, run };
  return cfg.method === "combsum" ? combSum(inputs, opts) : combMnz(inputs, opts);
}

async function imported(ws: Workspace, cfg: FileRetrievalConfig): Promise<RunRow[]> {
  let rows: RunRow[];
  try {
    rows = await readRun(cfg.path, { run: cfg.name });
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    throw new Deno.errors.NotFound(
      `Cannot import run "${cfg.name}": file "${cfg.path}" does not exist; fix "path" (relative to the config file)`,
    );
  }
  const topics = new Set((await readTopics(ws)).map((t) => t.topicId));
  const passages = new Set([...(await readPassages(ws)).values()].flat().map((p) => p.passageId));
  const check = (what: string, known: Set<string>, of: (r: RunRow) => string) => {
    if (!rows.some((r) => known.has(of(r)))) {
      throw new RangeError(
        `Cannot import run "${cfg.name}" from "${cfg.path}": none of its ${what} ids is in the workspace (first: "${
          of(rows[0])
        }"); the run must rank the workspace's ${what}s`,
      );
    }
  };
  check("topic", topics, (r) => r.topicId);
  check("passage", passages, (r) => r.docId);
  return rows;
}

/**
 * Computes one first-stage run over the workspace (it does not store it):
 * BM25 or dense retrieval over the pooled passages with each kept topic's
 * request as the query (topics with CRUX qrels), the fusion of runs already in
 * the workspace (`rrf`, `combSum`, `combMnz` of `@lib/retrieval`), or a TREC
 * run file. Dense runs embed each distinct passage and query text once per
 * call of the embedder; the `openai` embedder's requests are cached in the
 * workspace's `llm_calls` (key: model + batch of texts), so a re-run sends none.
 *
 * @param ws The experiment workspace (with passages and qrels `crux_pr`).
 * @param cfg The run; see {@link RetrievalConfig}.
 * @param opts `embedder` for `openai` dense runs.
 * @returns The run rows, named `cfg.name`.
 * @throws {TypeError} When a dense `openai` run has no `embedder`.
 * @throws {RangeError} When a fused run is missing or an imported run matches no topic or passage.
 * @throws {Deno.errors.NotFound} When a run file does not exist.
 * @example
 * ```ts
 * import { retrieveRun, selectRequired } from "@lib/construct/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await selectRequired(ws, { judge: "human" }); // queries are the selected topics
 * const bm25 = await retrieveRun(ws, { name: "bm25", k: 100 });
 * await ws.upsert("runs", bm25);
 * const dense = await retrieveRun(ws, { name: "dense-tfidf", kind: "dense", embedder: "tfidf" });
 * await ws.upsert("runs", dense);
 * const hybrid = await retrieveRun(ws, {
 *   name: "hybrid", kind: "fusion", runs: ["bm25", "dense-tfidf"], method: "rrf", k: 60,
 * });
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function retrieveRun(
  ws: Workspace,
  cfg: RetrievalConfig,
  opts: RetrieveRunOptions = {},
): Promise<RunRow[]> {
  if (cfg.kind === "fusion") return await fused(ws, cfg);
  if (cfg.kind === "file") return await imported(ws, cfg);
  const passages = [...(await readPassages(ws)).values()].flat();
  const docs = passages.map((p) => ({ id: p.passageId, text: p.text }));
  if (cfg.kind === "dense") {
    return await denseRows(docs, await queries(ws), cfg, opts.embedder);
  }
  const index = await Bm25Index.buildAsync(docs, { k1: cfg.k1, b: cfg.b });
  return bm25Run(index, await queries(ws), { run: cfg.name, k: cfg.k ?? 100 });
}
