/** The `grid` section of an experiment config: first stages x rerankers (private). */
import type { RerankConfig } from "@lib/construct/mod.ts";
import { checkRerank, type RunsContext } from "./_check_runs.ts";

/** US dollars per million prompt (`input`) and completion (`output`) tokens. */
export interface GridPrice {
  input: number;
  output: number;
}

/** One cell of the grid: a first stage reranked by one reranker. */
export interface GridCell {
  /** Run name `<first>+<reranker>`. */
  run: string;
  first: string;
  reranker: string;
}

/** A checked `grid` section. */
export interface GridSection {
  /** First-stage runs (`retrieve` entries), in the order given: the grid's references. */
  first: string[];
  /** Reranker names, in the order given. */
  rerankers: string[];
  /** Every first stage x every reranker, first stages outer. */
  cells: GridCell[];
  /** Prices by model name, per million tokens (cost per cell); none when absent. */
  prices?: Record<string, GridPrice>;
}

const KNOWN = ["first", "rerankers", "prices"];
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/**
 * Checks a `grid` section and expands it: for every first stage `f` (names of
 * `retrieve` entries; default all of them) and every reranker `r` (an object
 * like a `rerank` entry without `from`, its `name` defaulting to its method)
 * one reranked run `f+r`, in first-stage then reranker order. The first stages
 * stay as they are (the references of each group).
 *
 * @param value The section as read from JSON.
 * @param first Names of the `retrieve` runs.
 * @param taken Run names already used by `retrieve` and `rerank`.
 * @param ctx The checks' context (messages name the config file and the field).
 * @returns The section and the reranked runs it adds.
 * @throws {TypeError} On a malformed section, naming `grid.<field>`.
 */
export function parseGridSection(
  value: unknown,
  first: readonly string[],
  taken: ReadonlySet<string>,
  ctx: RunsContext,
): { grid: GridSection; rerank: RerankConfig[] } {
  const bad = ctx.bad;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw bad("grid", `must be an object with "first" and "rerankers", got ${show(value)}`);
  }
  const g = value as Record<string, unknown>;
  for (const key of Object.keys(g)) {
    if (!KNOWN.includes(key)) throw bad(`grid.${key}`, `is unknown; known: ${KNOWN.join(", ")}`);
  }
  let stages: string[] = [...first];
  if (g.first !== undefined) {
    if (!Array.isArray(g.first) || g.first.length === 0) {
      throw bad(
        "grid.first",
        `must be a non-empty list of retrieve run names, got ${show(g.first)}`,
      );
    }
    stages = g.first.map((f, i) => {
      if (typeof f !== "string" || !first.includes(f)) {
        throw bad(
          `grid.first[${i}]`,
          `must name a retrieve run (${first.join(", ")}), got ${show(f)}`,
        );
      }
      if ((g.first as unknown[]).indexOf(f) !== i) {
        throw bad(`grid.first[${i}]`, `repeats the run "${f}"`);
      }
      return f;
    });
  }
  if (!Array.isArray(g.rerankers) || g.rerankers.length === 0) {
    throw bad(
      "grid.rerankers",
      `must be a non-empty list of rerankers such as {"method": "lexical"}, got ${
        show(g.rerankers)
      }`,
    );
  }
  const names: string[] = [];
  const specs = g.rerankers.map((r, i) => {
    const at = `grid.rerankers[${i}]`;
    if (r === null || typeof r !== "object" || Array.isArray(r)) {
      throw bad(at, `must be an object with a "method", got ${show(r)}`);
    }
    const e = r as Record<string, unknown>;
    if (e.from !== undefined) {
      throw bad(`${at}.from`, `is set by the grid (every run of "grid.first"); remove it`);
    }
    const name = e.name ?? e.method;
    if (typeof name !== "string" || !/^[\w.-]+$/.test(name)) {
      throw bad(
        `${at}.name`,
        `must be a reranker name of letters, digits, . _ - (default: the method), got ${
          show(name)
        }`,
      );
    }
    if (names.includes(name)) {
      throw bad(
        `${at}.name`,
        `repeats the reranker name "${name}"; give each reranker its own name`,
      );
    }
    names.push(name);
    return { name, e, at };
  });
  const cells: GridCell[] = [];
  const rerank: RerankConfig[] = [];
  for (const f of stages) {
    for (const { name, e, at } of specs) {
      const run = `${f}+${name}`;
      if (taken.has(run)) {
        throw bad(`${at}.name`, `makes the run "${run}", which the config already names`);
      }
      const { name: _, ...settings } = e;
      rerank.push(checkRerank({ ...settings, name: run, from: f }, at, first, ctx));
      cells.push({ run, first: f, reranker: name });
    }
  }
  const grid: GridSection = { first: stages, rerankers: names, cells };
  if (g.prices !== undefined) grid.prices = checkPrices(g.prices, ctx);
  return { grid, rerank };
}

function checkPrices(value: unknown, ctx: RunsContext): Record<string, GridPrice> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw ctx.bad(
      "grid.prices",
      `must map model names to {"input": N, "output": N} (US dollars per million tokens), got ${
        show(value)
      }`,
    );
  }
  const out: Record<string, GridPrice> = {};
  for (const [model, p] of Object.entries(value as Record<string, unknown>)) {
    const at = `grid.prices.${model}`;
    if (p === null || typeof p !== "object" || Array.isArray(p)) {
      throw ctx.bad(at, `must be {"input": N, "output": N}, got ${show(p)}`);
    }
    const price = p as Record<string, unknown>;
    for (const key of Object.keys(price)) {
      if (key !== "input" && key !== "output") {
        throw ctx.bad(`${at}.${key}`, `is unknown; known: input, output`);
      }
    }
    for (const key of ["input", "output"]) {
      const v = price[key];
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
        throw ctx.bad(
          `${at}.${key}`,
          `must be US dollars per million tokens (a number >= 0), got ${show(v)}`,
        );
      }
    }
    out[model] = { input: price.input as number, output: price.output as number };
  }
  return out;
}
