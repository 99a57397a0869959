/**
 * `crux eval`'s flags read from the command line (private to the command).
 *
 * @module
 */
import { UsageError } from "../command.ts";

/** The options of `crux eval`: string options, repeatable ones, and flags. */
const STRING_OPTIONS = new Set([
  "aligned-to",
  "qrels",
  "div-qrels",
  "judgments",
  "corpus",
  "tau",
  "rel",
  "order",
  "tokenizer",
  "format",
]);
const MULTIPLE_OPTIONS = new Set(["run", "measures", "rewrite"]);
const BOOLEAN_OPTIONS = new Set(["per-query", "complete"]);
const SHORT: Record<string, string> = { m: "measures" };

/** The parsed flags, named as on the command line. */
export interface EvalFlags {
  run?: string[];
  measures?: string[];
  rewrite?: string[];
  "aligned-to"?: string;
  qrels?: string;
  "div-qrels"?: string;
  judgments?: string;
  corpus?: string;
  tau?: string;
  rel?: string;
  order?: string;
  tokenizer?: string;
  format?: string;
  "per-query"?: boolean;
  complete?: boolean;
}

/**
 * Reads the flags strictly, as node's `parseArgs` with `strict: true` does for
 * these options (`--name value`, `--name=value`, `-m value`, `-mvalue`; no
 * positional arguments). Written out here so that the command does not load
 * Node's compatibility layer, a visible share of a small evaluation's time.
 */
export function parseFlags(args: readonly string[]): EvalFlags {
  const values: Record<string, string | string[] | boolean> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      if (i + 1 < args.length) {
        throw new UsageError(
          `Unexpected argument '${args[i + 1]}'. This command does not take positional arguments`,
        );
      }
      break;
    }
    let name: string;
    let shown: string;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      shown = `--${name}`;
    } else if (arg.startsWith("-") && arg.length > 1) {
      shown = arg.slice(0, 2);
      name = SHORT[arg[1]] ?? "";
      if (!name) throw new UsageError(`Unknown option '${shown}'`);
      inline = arg.length > 2 ? arg.slice(2) : undefined;
    } else {
      throw new UsageError(
        `Unexpected argument '${arg}'. This command does not take positional arguments`,
      );
    }
    if (BOOLEAN_OPTIONS.has(name)) {
      if (inline !== undefined) throw new UsageError(`Option '${shown}' does not take an argument`);
      values[name] = true;
      continue;
    }
    if (!STRING_OPTIONS.has(name) && !MULTIPLE_OPTIONS.has(name)) {
      throw new UsageError(`Unknown option '${shown}'`);
    }
    let value = inline;
    if (value === undefined) {
      const next = args[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-")) {
        throw new UsageError(`Option '${shown} <value>' argument missing`);
      }
      value = args[++i];
    }
    if (MULTIPLE_OPTIONS.has(name)) ((values[name] ??= []) as string[]).push(value);
    else values[name] = value;
  }
  return values as EvalFlags;
}
