/**
 * The contract every `crux` subcommand implements. Commands never touch
 * `Deno.stdout`/`console` directly: they write through the given `Io`, so tests
 * can run them in-process and capture exactly what a user would see.
 *
 * @module
 */

/** Where a command writes. `out` is for results (pipeable), `err` for progress and diagnostics. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal (progress bars may redraw in place). */
  isTty?: boolean;
}

/** A subcommand of `crux`, possibly with subcommands of its own. */
export interface Command {
  /** Word typed after `crux`, e.g. `eval` or `judge`. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full `--help` text (usage, options with defaults, examples). */
  help: string;
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(args: string[], io: Io): Promise<number>;
}

/**
 * A command registered by name and summary whose module is imported only when
 * it runs, so `crux eval` does not pay for loading DuckDB, Vega or the
 * tokenizer that other commands need.
 */
export interface LazyCommand {
  name: string;
  summary: string;
  /** Imports the command's module and returns the command. */
  load(): Promise<Command>;
}

/** Thrown for wrong command-line usage; the dispatcher prints it with a pointer to `--help`. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** An `Io` writing to the process's stdout and stderr. */
export function processIo(): Io {
  const enc = new TextEncoder();
  return {
    out: (t) => void Deno.stdout.writeSync(enc.encode(t)),
    err: (t) => void Deno.stderr.writeSync(enc.encode(t)),
    isTty: Deno.stderr.isTerminal(),
  };
}

/** An `Io` that collects output in memory, for tests. */
export function memoryIo(): Io & { stdout: () => string; stderr: () => string } {
  let o = "";
  let e = "";
  return {
    out: (t) => void (o += t),
    err: (t) => void (e += t),
    isTty: false,
    stdout: () => o,
    stderr: () => e,
  };
}
