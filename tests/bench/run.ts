/**
 * `deno task bench`: runs the workbench's benchmarks and prints their figures.
 * Each benchmark module in this folder exports `bench(opts)` resolving to lines
 * of text. `deno task bench -- --only bm25,evaluator --quick` runs a subset at a
 * reduced scale.
 *
 * @module
 */
import { parseArgs } from "node:util";

const SUITES = [
  "bm25",
  "bm25_sweep",
  "bm25_lucene",
  "evaluator",
  "streaming",
  "llm",
  "store",
  "report",
  "nuggets",
  "stages",
  "cache_lookup",
  "serve",
] as const;

// `deno task bench -- --only x` hands the task's "--" on to the script: drop it.
const args = Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args;
const { values } = parseArgs({
  args,
  options: { only: { type: "string" }, quick: { type: "boolean", default: false } },
});
const only = values.only ? values.only.split(",") : [...SUITES];
const here = new URL(".", import.meta.url);

for (const name of only) {
  const url = new URL(`./${name}.ts`, here);
  try {
    await Deno.stat(url);
  } catch {
    console.log(`# ${name}: no benchmark module`);
    continue;
  }
  const mod = await import(url.href) as { bench(opts?: { quick?: boolean }): Promise<string[]> };
  console.log(`# ${name}`);
  const start = performance.now();
  for (const line of await mod.bench({ quick: values.quick })) console.log(line);
  console.log(`# ${name} finished in ${((performance.now() - start) / 1000).toFixed(1)} s\n`);
}
