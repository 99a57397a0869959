/** Checks the `retrieve` and `rerank` entries of an experiment config (private). */
import { isAbsolute, join } from "node:path";
import type { RetrievalConfig } from "@lib/construct/mod.ts";
import type { RerankConfig } from "@lib/construct/mod.ts";

type Bad = (field: string, message: string) => TypeError;
type Entry = Record<string, unknown>;

const RETRIEVE_FIELDS: Record<string, string[]> = {
  bm25: ["name", "kind", "k", "k1", "b"],
  dense: ["name", "kind", "embedder", "k", "dimensions"],
  fusion: ["name", "kind", "runs", "method", "k", "depth", "normalization"],
  file: ["name", "kind", "path"],
};
/** Fields of the window rerankers (listwise and first-token) and of the set rerankers. */
const WINDOW_FIELDS = [
  "name",
  "from",
  "method",
  "depth",
  "window",
  "stride",
  "passes",
  "passageWords",
  "template",
];
const SET_FIELDS = ["name", "from", "method", "depth", "c", "k", "passageWords", "passageTokens"];
const RERANK_FIELDS: Record<string, string[]> = {
  lexical: ["name", "from", "method", "depth", "k1", "b"],
  mmr: ["name", "from", "method", "lambda", "depth", "vectors"],
  listwise: WINDOW_FIELDS,
  "first-token": WINDOW_FIELDS,
  setwise: SET_FIELDS,
  "setwise-logprobs": SET_FIELDS,
  pointwise: ["name", "from", "method", "depth", "passageWords"],
  endpoint: ["name", "from", "method", "depth", "api"],
};

/** The reranker methods an experiment config accepts. */
export const RERANK_METHODS = Object.keys(RERANK_FIELDS);

const show = (v: unknown) => JSON.stringify(v) ?? String(v);
const list = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(", ");

/** The checks of one entry, naming its position (`retrieve[2]`). */
function checker(e: Entry, at: string, bad: Bad) {
  return {
    fields(allowed: string[], what: string) {
      for (const key of Object.keys(e)) {
        if (!allowed.includes(key)) {
          throw bad(`${at}.${key}`, `is unknown; fields of ${what}: ${allowed.join(", ")}`);
        }
      }
    },
    oneOf(key: string, values: readonly string[], required = false) {
      if (e[key] === undefined && !required) return;
      if (e[key] === undefined) throw bad(`${at}.${key}`, `is required: one of ${list(values)}`);
      if (!values.includes(e[key] as string)) {
        throw bad(`${at}.${key}`, `must be one of ${list(values)}, got ${show(e[key])}`);
      }
    },
    positiveInt(key: string) {
      const v = e[key];
      if (v !== undefined && !(Number.isInteger(v) && (v as number) > 0)) {
        throw bad(`${at}.${key}`, `must be a positive integer, got ${show(v)}`);
      }
    },
    number(key: string, min: number, max = Infinity) {
      const v = e[key];
      if (v === undefined) return;
      const ok = typeof v === "number" && Number.isFinite(v) && v >= min && v <= max;
      if (!ok) {
        const range = max === Infinity ? `>= ${min}` : `in [${min}, ${max}]`;
        throw bad(`${at}.${key}`, `must be a number ${range}, got ${show(v)}`);
      }
    },
    only(key: string, allowed: boolean, why: string) {
      if (e[key] !== undefined && !allowed) throw bad(`${at}.${key}`, why);
    },
  };
}

function checkName(e: Entry, at: string, names: Set<string>, bad: Bad): string {
  const name = e.name;
  if (typeof name !== "string" || !/^\S+$/.test(name)) {
    throw bad(`${at}.name`, `must be a run name without spaces, got ${show(name)}`);
  }
  if (names.has(name)) throw bad(`${at}.name`, `repeats the run name "${name}"`);
  return name;
}

function checkRetrieve(
  e: Entry,
  at: string,
  earlier: readonly string[],
  ctx: RunsContext,
): RetrievalConfig {
  const c = checker(e, at, ctx.bad);
  const kind = (e.kind ?? "bm25") as string;
  c.oneOf("kind", Object.keys(RETRIEVE_FIELDS));
  c.fields(RETRIEVE_FIELDS[kind], `kind "${kind}"`);
  if (kind === "bm25" || kind === "dense") c.positiveInt("k");
  if (kind === "bm25") {
    c.number("k1", 0);
    c.number("b", 0, 1);
  } else if (kind === "dense") {
    c.oneOf("embedder", ["tfidf", "openai"], true);
    c.positiveInt("dimensions");
    c.only("dimensions", e.embedder === "tfidf", 'applies only to embedder "tfidf"');
    if (e.embedder === "openai" && !ctx.online) {
      throw ctx.bad(
        `${at}.embedder`,
        '"openai" calls an embeddings endpoint; set "backend": "openai" or use "tfidf" offline',
      );
    }
  } else if (kind === "fusion") {
    const runs = e.runs;
    if (!Array.isArray(runs) || runs.length < 2) {
      throw ctx.bad(`${at}.runs`, `must list at least two runs to fuse, got ${show(runs)}`);
    }
    runs.forEach((r, j) => {
      if (typeof r !== "string" || !earlier.includes(r)) {
        throw ctx.bad(
          `${at}.runs[${j}]`,
          `must name an earlier retrieve run (${earlier.join(", ") || "none"}), got ${show(r)}`,
        );
      }
      if (runs.indexOf(r) !== j) throw ctx.bad(`${at}.runs[${j}]`, `repeats the run "${r}"`);
    });
    c.oneOf("method", ["rrf", "combsum", "combmnz"], true);
    c.number("k", 0);
    c.only("k", e.method === "rrf", 'is the RRF rank offset; only method "rrf" takes it');
    c.positiveInt("depth");
    c.oneOf("normalization", ["minmax", "sum", "zscore", "none"]);
    c.only("normalization", e.method !== "rrf", 'applies only to "combsum" and "combmnz"');
  } else if (kind === "file") {
    if (typeof e.path !== "string" || !e.path) {
      throw ctx.bad(`${at}.path`, `must be the path of a TREC run file, got ${show(e.path)}`);
    }
    const path = isAbsolute(e.path) ? e.path : join(ctx.configDir, e.path);
    return { ...e, path } as unknown as RetrievalConfig;
  }
  return { ...e } as unknown as RetrievalConfig;
}

/**
 * Checks one reranker entry (`at` names it, e.g. `rerank[1]` or
 * `grid.rerankers[0]`): known method and fields, `from` a first-stage run,
 * value ranges, and model methods only with `"backend": "openai"`.
 */
export function checkRerank(
  e: Entry,
  at: string,
  first: readonly string[],
  ctx: RunsContext,
): RerankConfig {
  const c = checker(e, at, ctx.bad);
  c.oneOf("method", RERANK_METHODS, true);
  c.fields(RERANK_FIELDS[e.method as string], `method "${e.method}"`);
  if (typeof e.from !== "string" || !first.includes(e.from)) {
    throw ctx.bad(
      `${at}.from`,
      `must name a retrieve run (${first.join(", ")}), got ${show(e.from)}`,
    );
  }
  c.positiveInt("depth");
  const needsModel = (what: string) => {
    if (!ctx.online) {
      throw ctx.bad(
        `${at}.method`,
        `"${e.method}" ${what}; set "backend": "openai" or use "lexical" or "mmr" offline`,
      );
    }
  };
  if (e.method === "mmr") {
    c.oneOf("vectors", ["tfidf", "embedder"]);
    c.number("lambda", 0, 1);
    if (e.vectors === "embedder" && !ctx.online) {
      throw ctx.bad(
        `${at}.vectors`,
        '"embedder" calls an embeddings endpoint (the embedder role); set "backend": "openai" or use "tfidf" offline',
      );
    }
  } else if (e.method === "lexical") {
    c.number("k1", 0);
    c.number("b", 0, 1);
  } else if (e.method === "endpoint") {
    c.oneOf("api", ["rerank", "score"]);
    if (!ctx.online) {
      throw ctx.bad(
        `${at}.method`,
        '"endpoint" calls a cross-encoder endpoint (the reranker role); set "backend": "openai" or use "mmr" offline',
      );
    }
  } else {
    for (const k of ["window", "stride", "passes", "c", "k", "passageWords", "passageTokens"]) {
      c.positiveInt(k);
    }
    if (e.method === "first-token") c.number("window", 2, 26);
    if (
      e.template !== undefined && (typeof e.template !== "string" || !/^[a-z_]+$/.test(e.template))
    ) {
      throw ctx.bad(
        `${at}.template`,
        `must be a prompt template id such as "rerank_rankzephyr", got ${show(e.template)}`,
      );
    }
    if (e.method === "listwise" || e.method === "first-token") {
      const window = (e.window as number | undefined) ?? 20;
      if (((e.stride as number | undefined) ?? 10) > window) {
        throw ctx.bad(
          `${at}.stride`,
          `must not exceed the window (${window}), got ${show(e.stride)}`,
        );
      }
    }
    if (e.method === "setwise" || e.method === "setwise-logprobs") {
      c.number("c", 2, 26);
    }
    needsModel("calls an LLM (the reranker role)");
  }
  return { ...e } as unknown as RerankConfig;
}

/** What the checks need besides the entries. */
export interface RunsContext {
  bad: Bad;
  /** `backend` is `openai`: endpoint embedders and rerankers are allowed. */
  online: boolean;
  /** Folder of the config file (run file paths resolve against it). */
  configDir: string;
}

/**
 * Checks `retrieve` and `rerank` (lists already checked) and returns them with
 * run file paths made absolute; `retrieve` stays undefined when absent (default
 * run `bm25`).
 */
export function checkRuns(
  retrieve: Entry[] | undefined,
  rerank: Entry[] | undefined,
  ctx: RunsContext,
): { retrieve?: RetrievalConfig[]; rerank?: RerankConfig[] } {
  const names = new Set<string>();
  const entry = (e: unknown, at: string): Entry => {
    if (e === null || typeof e !== "object" || Array.isArray(e)) {
      throw ctx.bad(at, `must be an object with a "name", got ${show(e)}`);
    }
    checkName(e as Entry, at, names, ctx.bad);
    return e as Entry;
  };
  const first: string[] = [];
  const outRetrieve = retrieve?.map((raw, i) => {
    const e = entry(raw, `retrieve[${i}]`);
    const r = checkRetrieve(e, `retrieve[${i}]`, first, ctx);
    names.add(r.name);
    first.push(r.name);
    return r;
  });
  if (!retrieve) {
    first.push("bm25");
    names.add("bm25");
  }
  const outRerank = rerank?.map((raw, i) => {
    const e = entry(raw, `rerank[${i}]`);
    const r = checkRerank(e, `rerank[${i}]`, first, ctx);
    names.add(r.name);
    return r;
  });
  return {
    ...(outRetrieve ? { retrieve: outRetrieve } : {}),
    ...(outRerank ? { rerank: outRerank } : {}),
  };
}
