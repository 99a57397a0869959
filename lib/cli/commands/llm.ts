/**
 * `crux llm stats`: calls, cache hits, failures, tokens and cost per model and
 * step, from a workspace's `llm_calls` table.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { type Command, type Io, UsageError } from "../command.ts";
import { runAction } from "../_actions.ts";
import { type ModelPrice, openCallCache, summarizeUsage } from "@lib/llm/mod.ts";
import { readLlmConfig } from "./_llm_flags.ts";

const HELP = `Usage: crux llm stats [--workspace DIR] [--prices FILE] [--config FILE] [--json]

Summarises the workspace's model calls per model and step (template): stored calls,
ok / unparsed / failed / pending, cache hits, HTTP attempts, tokens and cost.
Prices (US dollars per million tokens) come from --prices (JSON {"model": {"input", "output"}}),
else from the config's llm.prices; models without a price show "-".

Options:
  --workspace DIR   workspace folder (default outputs/default)
  --json            print JSON lines instead of a table
`;

async function readPrices(path?: string, config?: string): Promise<Record<string, ModelPrice>> {
  if (path) {
    try {
      return JSON.parse(await Deno.readTextFile(path));
    } catch (error) {
      throw new UsageError(
        `Cannot read prices "${path}": ${error instanceof Error ? error.message : error}`,
      );
    }
  }
  return (await readLlmConfig(config)).prices ?? {};
}

async function stats(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: "string" },
      prices: { type: "string" },
      config: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const prices = await readPrices(values.prices, values.config);
  const opened = await openCallCache(values.workspace ?? join("outputs", "default"), {
    create: false,
  });
  let rows;
  try {
    rows = summarizeUsage(await opened.cache.stats(), prices);
  } finally {
    await opened.close();
  }
  if (values.json) {
    for (const r of rows) io.out(JSON.stringify(r) + "\n");
    return 0;
  }
  const head = [
    "model",
    "step",
    "calls",
    "ok",
    "unparsed",
    "failed",
    "pending",
    "hits",
    "attempts",
    "in_tokens",
    "out_tokens",
    "cost_usd",
  ];
  const body = rows.map((r) =>
    [
      r.model,
      r.template || "-",
      r.calls,
      r.ok,
      r.unparsed,
      r.failed,
      r.pending,
      r.hits,
      r.attempts,
      r.promptTokens,
      r.completionTokens,
      r.costUsd === null ? "-" : r.costUsd.toFixed(4),
    ].map(String)
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  io.out([line(head), ...body.map(line)].join("\n") + "\n");
  if (!rows.length) io.err("No model calls recorded in this workspace yet.\n");
  return 0;
}

/**
 * `crux llm`: inspect the LLM layer's cache and trace (`crux llm stats`).
 *
 * @example
 * ```ts
 * import { main } from "@lib/cli/main.ts";
 * const workspace = await Deno.makeTempDir(); // e.g. "outputs/demo"
 * await main(["llm", "stats", "--workspace", workspace]);
 * ```
 */
export const llmCommand: Command = {
  name: "llm",
  summary: "model call statistics: calls, cache hits, failures, tokens, cost",
  help: HELP,
  run(args: string[], io: Io): Promise<number> {
    return runAction(args, io, { what: "llm action", actions: { stats }, help: () => HELP });
  },
};
