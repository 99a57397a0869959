/**
 * BM25 speed across collection and query shapes: Zipf exponents of the
 * vocabulary (0.9-1.2) and query lengths (5-80 words, about a third function
 * words), top-100 search, single thread. `--export DIR` also writes each
 * collection and its queries as TSV (`docs.tsv`, `queries_<words>.tsv`) so
 * another engine can be timed on exactly the same input.
 *
 * Run: `deno run -A tests/bench/bm25_sweep.ts [--passages N] [--export DIR]`
 * (default 100,000 passages; the CRUX pooled corpus is 565,000).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { Bm25Index } from "@lib/retrieval/mod.ts";
import { generateCollection, textGenerator } from "./bm25.ts";

/**
 * The `deno task bench` entry: 100,000 passages (20,000 with `quick`), every
 * shape.
 */
export function bench(opts: { quick?: boolean } = {}): Promise<string[]> {
  return sweep({ passages: opts.quick ? 20_000 : 100_000 });
}

/** Runs the sweep and returns lines of figures. */
export async function sweep(opts: {
  passages?: number;
  exponents?: number[];
  lengths?: number[];
  queries?: number;
  rounds?: number;
  exportDir?: string;
} = {}): Promise<string[]> {
  const n = opts.passages ?? 100_000;
  const lines: string[] = [];
  for (const exponent of opts.exponents ?? [0.9, 1.0, 1.2]) {
    const { docs } = generateCollection(n, 0, 42, exponent);
    const index = Bm25Index.build(docs);
    const dir = opts.exportDir ? `${opts.exportDir}/zipf${exponent}` : undefined;
    if (dir) {
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(
        `${dir}/docs.tsv`,
        docs.map((d) => `${d.id}\t${d.text}`).join("\n") + "\n",
      );
    }
    index.search("warm up the norms and bounds", 100);
    for (const words of opts.lengths ?? [5, 20, 50, 80]) {
      const text = textGenerator(1000 + words, 300_000, exponent);
      const queries = Array.from(
        { length: opts.queries ?? 100 },
        (_, i) => ({ id: `q${i}`, text: text(words) }),
      );
      if (dir) {
        await Deno.writeTextFile(
          `${dir}/queries_${words}.tsv`,
          queries.map((q) => `${q.id}\t${q.text}`).join("\n") + "\n",
        );
      }
      let best = Infinity;
      for (let r = 0; r < (opts.rounds ?? 3); r++) {
        const t = performance.now();
        for (const q of queries) index.search(q.text, 100);
        best = Math.min(best, (performance.now() - t) / 1000);
      }
      lines.push(
        `bm25 sweep: ${n} passages, zipf ${exponent.toFixed(1)}, ${words}-word queries: ${
          (queries.length / best).toFixed(1)
        } queries/s (top 100, best of ${opts.rounds ?? 3})`,
      );
    }
  }
  return lines;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      passages: { type: "string" },
      export: { type: "string" },
      exponents: { type: "string" },
      lengths: { type: "string" },
      queries: { type: "string" },
    },
  });
  const list = (s?: string) => s?.split(",").map(Number);
  for (
    const line of await sweep({
      passages: values.passages ? Number(values.passages) : undefined,
      exportDir: values.export,
      exponents: list(values.exponents),
      lengths: list(values.lengths),
      queries: values.queries ? Number(values.queries) : undefined,
    })
  ) console.log(line);
}
