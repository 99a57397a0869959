/**
 * `crux rerank`: reranks a TREC run outside an experiment (listwise LLM or the
 * offline lexical stand-in) and writes a TREC run.
 *
 * @module
 */
import { RERANK_METHODS } from "@lib/pipeline/mod.ts";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import {
  compareTrecOrder,
  guardOutputs,
  readCorpus,
  readRun,
  readSubquestions,
  readTopicsFile,
  RUN_FILE,
  writeRun,
} from "@lib/formats/mod.ts";
import { LlmClient, openAiEmbedder, openCallCache, resolveRoleConfig } from "@lib/llm/mod.ts";
import { type Embedder, embeddingMmr, lexicalRerank, tfidfEmbedder } from "@lib/retrieval/mod.ts";
import {
  endpointPointwiseRerank,
  type FirstTokenRanking,
  type ListwiseQuery,
  type ListwiseRanking,
  llmFirstTokenRerank,
  llmListwiseRerank,
  llmPointwiseRerank,
  llmSetwiseLogprobRerank,
  llmSetwiseRerank,
  type PointwiseRanking,
  type SetwiseLogprobRanking,
  type SetwiseRanking,
} from "@lib/construct/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";
import { type Command, type Io, UsageError } from "../command.ts";
import {
  clientFlags,
  clientOverrides,
  int,
  MODEL_FLAGS,
  readLlmConfig,
  TUNING_FLAGS,
} from "./_llm_flags.ts";

const HELP = `Usage: deno task crux rerank --run FILE --topics FILE --corpus FILE
         --method listwise|first-token|setwise|setwise-logprobs|pointwise|endpoint|mmr|lexical
         --out FILE [options]

Reranks the top --depth candidates of every topic of a TREC run (taken in
trec_eval's order: score descending, ties by docid descending) and writes a TREC
run (the rest keep their order below; scores are N - rank + 1, so trec_eval reads
the new order).

Methods:
  listwise   an LLM orders sliding windows of passages (RankGPT / RankZephyr):
             window 20, stride 10, from the bottom of the list up, --passes times;
             calls per topic and pass = ceil((N - window) / stride) + 1 (1 when
             N <= window). Answers "[3] > [1] > ..." are read without guessing:
             missing identifiers appended in input order, repeats and unknown
             identifiers dropped, answers without identifiers keep the window's
             order; each repair is counted. Calls are cached in --workspace: a
             repeated run sends nothing.
  setwise    an LLM names the most relevant of sets of --c passages (Zhuang et
             al.); heap sort selects the top --k, the rest follow in first-stage
             order; comparisons per topic are reported. Answers naming no
             passage of the set, counted, leave first-stage order to decide.
  first-token
             listwise windows as above (at most 26 passages, lettered [A]..),
             each ordered by the log-probabilities of the first generated label
             (FIRST style; logprobs / top_logprobs of the endpoint); where the
             endpoint returns none, by the generated permutation instead, and
             the run is reported as such (fallback).
  setwise-logprobs
             setwise, the best of each set read from the labels'
             log-probabilities; the generated label where the endpoint returns
             none (reported as a fallback).
  pointwise  an LLM grades each passage 0-3 (the relevance template, a final
             "##final score: N" line); passages by grade, ties in first-stage
             order; ungraded ones (counted) below the graded ones.
  endpoint   a cross-encoder endpoint scores each passage against the request
             (miniLM, monoT5 or any model behind a server speaking /rerank, or
             vLLM's /score with --api score), --batch passages per request;
             requests per topic = ceil(min(N, depth) / batch); cached in
             --workspace, so a repeated run sends nothing. Passages by score,
             ties in first-stage order.
  mmr        maximal marginal relevance (lambda * run score, min-max normalised,
             minus (1 - lambda) * the largest cosine to passages already
             picked) over vectors from the embeddings endpoint (the embedder
             role, with --model; the paper uses all-mpnet-base-v2), or over
             TF-IDF vectors of the topic's candidates without a model
             (offline stand-in).
  lexical    offline stand-in (no model): BM25 over each topic's candidates for
             the request expanded by the topic's sub-questions (--subquestions).

Options:
  --run FILE            TREC run to rerank (required)
  --topics FILE         JSONL topics: the request is the query (required)
  --corpus FILE         JSONL passages {"id", "contents"} with the candidates' text (required)
  --method NAME         listwise, first-token, setwise, setwise-logprobs, pointwise,
                        endpoint, mmr or lexical (required)
  --out FILE            run file to write (required; written atomically)
  --depth N             candidates reranked per topic (default 100)
  --tag NAME            run name in the last column (default: <input run>-<method>, with
                        -fallback when log-probabilities were missing)
  --subquestions FILE   lexical: CRUX sub-questions JSON {"topic": ["question", ...]}
  --window N            listwise, first-token: passages per window (default 20)
  --stride N            listwise, first-token: step between windows, at most the window (default 10)
  --passes N            listwise, first-token: passes over the list (default 1)
  --template NAME       listwise: window prompt rerank_listwise (default), rerank_rankzephyr
                        or rerank_rankvicuna; first-token: rerank_first (default)
  --c N                 setwise, setwise-logprobs: passages compared at once (default 4)
  --k N                 setwise, setwise-logprobs: candidates selected to the top (default 10)
  --api NAME            endpoint: rerank (default) or score
  --batch N             endpoint: passages per request (default 32)
  --lambda X            mmr: weight of relevance against novelty, 0-1 (default 0.5)
  --passage-words N     model methods: words of each passage shown (default 300)
  --model M, --base-url URL, --concurrency N, --max-retries N, --timeout-ms N,
  --rpm N, --tpm N, --templates DIR, --prompt [NAME=]FILE, --config FILE
                        model methods: the reranker role's model and endpoint
                        (or CRUX_RERANKER_MODEL, CRUX_RERANKER_BASE_URL, ...);
                        mmr: the embedder role's (CRUX_EMBEDDER_MODEL, ...)
  --workspace DIR       model methods: workspace holding the call cache
                        (default outputs/default)

Example:
  deno task crux rerank --run outputs/bm25.run --topics datasets/sample/topics.jsonl \\
    --corpus datasets/sample/corpus.jsonl --subquestions datasets/sample/questions.json \\
    --method lexical --out outputs/bm25-lexical.run
`;

const WINDOW_FLAGS = ["window", "stride", "passes", "template"] as const;
const SET_FLAGS = ["c", "k"] as const;
const MODEL_ONLY = ["passage-words", "workspace"] as const;
const ENDPOINT_FLAGS = ["api", "batch"] as const;

/** The run's rankings per topic, in trec_eval's order, in order of first appearance. */
function rankings(rows: readonly RunRow[], file: string): Map<string, RunRow[]> {
  const by = new Map<string, RunRow[]>();
  for (const r of rows) {
    const list = by.get(r.topicId) ?? [];
    list.push(r);
    by.set(r.topicId, list);
  }
  for (const [topic, list] of by) {
    list.sort(compareTrecOrder);
    const seen = new Set<string>();
    for (const r of list) {
      if (seen.has(r.docId)) {
        throw new UsageError(
          `${file}: topic "${topic}" lists passage "${r.docId}" twice; remove the repeated line`,
        );
      }
      seen.add(r.docId);
    }
  }
  return by;
}

async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      run: { type: "string" },
      topics: { type: "string" },
      corpus: { type: "string" },
      method: { type: "string" },
      out: { type: "string" },
      depth: { type: "string" },
      tag: { type: "string" },
      subquestions: { type: "string" },
      window: { type: "string" },
      stride: { type: "string" },
      passes: { type: "string" },
      "passage-words": { type: "string" },
      template: { type: "string" },
      c: { type: "string" },
      k: { type: "string" },
      lambda: { type: "string" },
      api: { type: "string" },
      batch: { type: "string" },
      ...clientFlags,
    },
    strict: true,
    allowPositionals: false,
  });
  for (const k of ["run", "topics", "corpus", "method", "out"] as const) {
    if (!values[k]) throw new UsageError(`Missing --${k}; see crux rerank --help`);
  }
  const method = values.method!;
  // The same rerankers as an experiment config's `rerank` entries.
  if (!RERANK_METHODS.includes(method)) {
    throw new UsageError(
      `Unknown --method "${method}": use ${RERANK_METHODS.slice(0, -1).join(", ")} or ${
        RERANK_METHODS.at(-1)
      }`,
    );
  }
  const windowed = method === "listwise" || method === "first-token";
  const setwise = method === "setwise" || method === "setwise-logprobs";
  const stray = (flags: readonly string[]) =>
    flags.filter((k) => values[k as keyof typeof values] !== undefined).map((k) => `--${k}`);
  if (method !== "endpoint") {
    const given = stray(ENDPOINT_FLAGS);
    if (given.length) {
      throw new UsageError(`${given.join(", ")} only apply to --method endpoint`);
    }
  }
  // MMR calls a model (the embedder role) only when a model or endpoint is named.
  const mmrOnline = method === "mmr" && stray(MODEL_FLAGS).length > 0;
  if (method === "mmr" && !mmrOnline) {
    const given = stray([...TUNING_FLAGS, ...MODEL_ONLY, ...WINDOW_FLAGS, ...SET_FLAGS]);
    if (given.length) {
      throw new UsageError(
        `${given.join(", ")} do not apply to --method mmr over TF-IDF vectors (offline); ` +
          `add --model M (an embeddings model) for endpoint vectors, or drop them`,
      );
    }
  } else if (method === "mmr") {
    const given = stray(["passage-words", ...WINDOW_FLAGS, ...SET_FLAGS, "subquestions"]);
    if (given.length) {
      throw new UsageError(`${given.join(", ")} do not apply to --method mmr`);
    }
  } else if (method === "lexical") {
    const given = stray([
      ...MODEL_FLAGS,
      ...TUNING_FLAGS,
      ...MODEL_ONLY,
      ...WINDOW_FLAGS,
      ...SET_FLAGS,
      "lambda",
    ]);
    if (given.length) {
      throw new UsageError(
        `${given.join(", ")} only apply to the model methods; the lexical method is an offline ` +
          `stand-in that calls no model: drop them or use a model method`,
      );
    }
  } else {
    const other = stray([
      ...(windowed ? [] : WINDOW_FLAGS),
      ...(setwise ? [] : SET_FLAGS),
      ...(method === "endpoint" ? ["passage-words"] : []),
      "subquestions",
      "lambda",
    ]);
    if (other.length) {
      throw new UsageError(
        `${other.join(", ")} do not apply to --method ${method}; see crux rerank --help`,
      );
    }
  }
  const online = method !== "lexical" && (method !== "mmr" || mmrOnline);
  const workspace = values.workspace ?? join("outputs", "default");
  await guardOutputs({
    inputs: {
      "--run": values.run,
      "--topics": values.topics,
      "--corpus": values.corpus,
      "--subquestions": values.subquestions,
      "--config": values.config,
    },
    outputs: { "--out": { path: values.out, kind: RUN_FILE } },
    workspace: online ? workspace : undefined,
  });
  const depth = int("depth", values.depth, 1) ?? 100;
  const window = int("window", values.window, 1) ?? 20;
  const stride = int("stride", values.stride, 1) ?? 10;
  if (stride > window) {
    throw new UsageError(`--stride (${stride}) must not exceed --window (${window})`);
  }
  const passes = int("passes", values.passes, 1) ?? 1;
  if (method === "first-token" && window > 26) {
    throw new UsageError(
      `--window must be at most 26 for --method first-token (passages are lettered), got ${window}`,
    );
  }
  const passageWords = int("passage-words", values["passage-words"], 1) ?? 300;
  const c = int("c", values.c, 2) ?? 4;
  if (c > 26) throw new UsageError(`--c must be at most 26 (passages are lettered), got ${c}`);
  const k = int("k", values.k, 1) ?? 10;
  const batch = int("batch", values.batch, 1) ?? 32;
  const api = values.api ?? "rerank";
  if (api !== "rerank" && api !== "score") {
    throw new UsageError(`--api must be "rerank" or "score", got "${api}"`);
  }
  const lambda = values.lambda === undefined ? 0.5 : Number(values.lambda);
  if (!(lambda >= 0 && lambda <= 1)) {
    throw new UsageError(`--lambda must be a number from 0 to 1, got "${values.lambda}"`);
  }

  const rows = await readRun(values.run!);
  const tag = values.tag ?? `${rows[0].run}-${method}`;
  if (!/^\S+$/.test(tag)) {
    throw new UsageError(`Option --tag must be one word without spaces, got "${tag}"`);
  }
  let runName = tag;
  const byTopic = rankings(rows, values.run!);
  const topics = new Map(
    (await readTopicsFile(values.topics!)).map((t) => [t.topicId, t.request]),
  );
  const missingTopics = [...byTopic.keys()].filter((t) => !topics.has(t));
  if (missingTopics.length) {
    throw new UsageError(
      `${values.topics}: no topic "${missingTopics[0]}" of run ${values.run} ` +
        `(${missingTopics.length} run topic(s) missing); give the topics file the run was made from`,
    );
  }
  const texts = new Map((await readCorpus(values.corpus!)).map((p) => [p.id, p.contents]));
  const queries: ListwiseQuery[] = [];
  for (const [topicId, list] of byTopic) {
    const top = list.slice(0, depth);
    const absent = top.find((r) => !texts.has(r.docId));
    if (absent) {
      throw new UsageError(
        `${values.corpus}: no passage "${absent.docId}" (topic "${topicId}" of ${values.run}); ` +
          `give the corpus the run was retrieved from`,
      );
    }
    queries.push({
      topicId,
      query: topics.get(topicId)!,
      candidates: top.map((r) => ({ docId: r.docId, text: texts.get(r.docId)! })),
    });
  }

  const order = new Map<string, string[]>();
  if (method === "mmr") {
    const opened = mmrOnline ? await openCallCache(workspace) : undefined;
    try {
      let endpoint: Embedder | undefined;
      if (opened) {
        const config = await readLlmConfig(values.config);
        const settings = resolveRoleConfig("embedder", {
          config,
          overrides: clientOverrides(values),
        });
        endpoint = openAiEmbedder(new LlmClient({ ...settings, cache: opened.cache }));
      }
      for (const q of queries) {
        const list = byTopic.get(q.topicId)!;
        const hits = q.candidates.map((c, i) => ({ ...c, score: list[i].score }));
        const embedder = endpoint ?? tfidfEmbedder(hits.map((h) => h.text));
        const picks = await embeddingMmr(hits, embedder, { lambda });
        order.set(q.topicId, picks.map((p) => p.docId));
      }
      io.err(
        `MMR (lambda ${lambda}, depth ${depth}) over ${
          endpoint
            ? `${endpoint.name} vectors from the embeddings endpoint`
            : "TF-IDF vectors fitted on each topic's candidates (offline stand-in)"
        }: ${queries.length} topic(s)\n`,
      );
    } finally {
      await opened?.close();
    }
  } else if (method === "lexical") {
    const subq = values.subquestions ? await readSubquestions(values.subquestions) : undefined;
    let without = 0;
    for (const q of queries) {
      const expansions = subq?.get(q.topicId) ?? [];
      if (!expansions.length) without++;
      order.set(q.topicId, lexicalRerank(q.query, expansions, q.candidates).map((p) => p.docId));
    }
    io.err(
      `lexical reranker (BM25 over the candidates, request expanded by sub-questions; ` +
        `offline stand-in for the model rerankers): ${queries.length} topic(s)` +
        (without ? `, ${without} without sub-questions (request alone)` : "") + "\n",
    );
  } else {
    const config = await readLlmConfig(values.config);
    const settings = resolveRoleConfig("reranker", { config, overrides: clientOverrides(values) });
    const opened = await openCallCache(workspace);
    try {
      const client = new LlmClient({ ...settings, cache: opened.cache });
      if (method === "endpoint") {
        const ranked = await endpointPointwiseRerank(queries, { client, api, depth, batch });
        io.err(
          `endpoint reranker ${settings.model} (/${api}, ${batch} passage(s) per request, ` +
            `depth ${depth}): ${queries.length} topic(s), ${
              ranked.reduce((n, r) => n + r.calls, 0)
            } request(s) (cache hits included)\n`,
        );
        for (const r of ranked) order.set(r.topicId, r.docIds);
        return await writeOut(byTopic, order, tag, values.out!, io);
      }
      const common = { client, templatesDir: settings.templatesDir, depth, passageWords };
      const results: (
        | ListwiseRanking
        | FirstTokenRanking
        | SetwiseRanking
        | SetwiseLogprobRanking
        | PointwiseRanking
      )[] = method === "listwise"
        ? await llmListwiseRerank(queries, {
          ...common,
          window,
          stride,
          passes,
          template: values.template,
        })
        : method === "first-token"
        ? await llmFirstTokenRerank(queries, {
          ...common,
          window,
          stride,
          passes,
          template: values.template,
        })
        : method === "setwise"
        ? await llmSetwiseRerank(queries, { ...common, c, k })
        : method === "setwise-logprobs"
        ? await llmSetwiseLogprobRerank(queries, { ...common, c, k })
        : await llmPointwiseRerank(queries, common);
      const failed = results.filter((r) => r.counts.failed > 0);
      if (failed.length) {
        io.err(
          `crux rerank: ${failed.length} topic(s) had failed calls (first: topic "${
            failed[0].topicId
          }": ${failed[0].counts.firstError}); nothing written. Answered calls are cached: ` +
            `fix the endpoint and run again\n`,
        );
        return 1;
      }
      const sumOf = (r: (typeof results)[number], key: string) =>
        (r.counts as unknown as Record<string, number>)[key] ?? 0;
      const sum = (key: string) => results.reduce((s, r) => s + sumOf(r, key), 0);
      io.err(
        method === "first-token"
          ? `first-token listwise reranker ${settings.model} (window ${window}, stride ${stride}, ` +
            `${passes} pass(es), depth ${depth}): ${queries.length} topic(s), ${
              sum("calls")
            } window call(s); ${sum("byLogprobs")} ordered by the first label's ` +
            `log-probabilities, ${sum("fallback")} by the generated permutation (FALLBACK: no ` +
            `log-probabilities returned), ${sum("noLabel")} without a label token read by their ` +
            `text; repairs: ${sum("missing")} missing identifier(s) appended, ${
              sum("repeated")
            } repeated and ${sum("unknown")} unknown dropped, ${sum("unparsed")} unparsed ` +
            `window(s) kept in order\n`
          : method === "setwise-logprobs"
          ? `setwise reranker by label log-probabilities ${settings.model} (c ${c}, top ${k}, ` +
            `depth ${depth}): ${queries.length} topic(s), ${
              sum("comparisons")
            } comparison(s) (per topic: ${
              results.map((r) => `${r.topicId} ${sumOf(r, "comparisons")}`).join(", ")
            }); ${sum("byLogprobs")} decided by log-probabilities, ${
              sum("fallback")
            } by the generated label (FALLBACK: no log-probabilities returned); ${
              sum("unparsed")
            } unparsed, decided by first-stage order\n`
          : method === "listwise"
          ? `listwise reranker ${settings.model} (window ${window}, stride ${stride}, ` +
            `${passes} pass(es), depth ${depth}): ${queries.length} topic(s), ${
              sum("calls")
            } window call(s); repairs: ${sum("missing")} missing identifier(s) appended, ` +
            `${sum("repeated")} repeated and ${sum("unknown")} unknown dropped, ` +
            `${sum("unparsed")} unparsed window(s) kept in order\n`
          : method === "setwise"
          ? `setwise reranker ${settings.model} (c ${c}, top ${k}, depth ${depth}): ` +
            `${queries.length} topic(s), ${sum("comparisons")} comparison(s) (per topic: ${
              results.map((r) => `${r.topicId} ${sumOf(r, "comparisons")}`).join(", ")
            }); ${sum("unparsed")} unparsed, decided by first-stage order\n`
          : `pointwise reranker ${settings.model} (relevance 0-3, depth ${depth}): ` +
            `${queries.length} topic(s), ${sum("calls")} passage(s) graded; ${
              sum("unparsed")
            } without a grade, ranked below the graded ones\n`,
      );
      for (const r of results) order.set(r.topicId, r.docIds);
      // A run that fell back is not the method's: its default name says so.
      if (values.tag === undefined && sum("fallback") > 0) runName = `${tag}-fallback`;
    } finally {
      await opened.close();
    }
  }

  return await writeOut(byTopic, order, runName, values.out!, io);
}

/** Writes the reranked heads followed by the rest of each topic's list. */
async function writeOut(
  byTopic: Map<string, RunRow[]>,
  order: Map<string, string[]>,
  tag: string,
  file: string,
  io: Io,
): Promise<number> {
  const out: RunRow[] = [];
  for (const [topicId, list] of byTopic) {
    const head = order.get(topicId)!;
    const ids = [...head, ...list.slice(head.length).map((r) => r.docId)];
    ids.forEach((docId, i) =>
      out.push({ run: tag, topicId, docId, rank: i + 1, score: ids.length - i })
    );
  }
  await Deno.mkdir(dirname(file), { recursive: true });
  await writeRun(file, out);
  io.out(`Wrote ${out.length} rows for ${byTopic.size} topics to ${file}\n`);
  return 0;
}

/** The `crux rerank` command. */
export const rerankCommand: Command = {
  name: "rerank",
  summary:
    "Rerank a TREC run (listwise, setwise or pointwise LLM, cross-encoder endpoint, MMR, or the lexical stand-in)",
  help: HELP,
  run,
};
