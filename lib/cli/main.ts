/**
 * Entry point of the `crux` command line: `deno task crux <command> [options]`.
 *
 * @module
 */
import { type Command, type Io, type LazyCommand, processIo, UsageError } from "./command.ts";
import { COMMANDS } from "./registry.ts";
import { explainStorageError } from "@lib/store/storage_error.ts";

/** Help text listing every subcommand. */
export function topHelp(commands: readonly (Command | LazyCommand)[]): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "crux - controlled evaluation of retrieval-augmented report generation",
    "",
    "Usage: deno task crux <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `deno task crux <command> --help` for a command's options.",
    "",
  ].join("\n");
}

/**
 * Runs `crux` with the given arguments and returns the exit code.
 *
 * @param args Command-line arguments after `crux`.
 * @param io Where output goes (the process's streams by default).
 * @returns 0 on success, 1 on failure, 2 on usage errors.
 */
export async function main(
  args: string[],
  io: Io = processIo(),
  commands: readonly (Command | LazyCommand)[] = COMMANDS,
): Promise<number> {
  const [name, ...rest] = args;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.out(topHelp(commands));
    return name ? 0 : 2;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`Unknown command "${name}". Run \`deno task crux --help\` for the list.\n`);
    return 2;
  }
  const command = "load" in entry ? await entry.load() : entry;
  if (rest.includes("--help") || rest.includes("-h")) {
    // Subcommands with subcommands of their own handle --help themselves.
    if (!rest[0] || rest[0].startsWith("-")) {
      io.out(command.help.endsWith("\n") ? command.help : command.help + "\n");
      return 0;
    }
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // node:util parseArgs rejects unknown or malformed options with ERR_PARSE_ARGS_* codes.
    const parseArgsError = String((error as { code?: unknown })?.code ?? "").startsWith(
      "ERR_PARSE_ARGS",
    );
    if (error instanceof UsageError || parseArgsError) {
      io.err(
        `crux ${name}: ${
          (error as Error).message
        }\nRun \`deno task crux ${name} --help\` for usage.\n`,
      );
      return 2;
    }
    const at = rest.indexOf("--workspace");
    const explained = explainStorageError(error, at >= 0 ? rest[at + 1] : undefined);
    const message = explained?.message ??
      (error instanceof Error ? error.message : String(error));
    io.err(`crux ${name}: ${message}\n`);
    return 1;
  }
}

if (import.meta.main) {
  // `deno task crux -- eval ...` hands the task's "--" on: the command follows it.
  Deno.exit(await main(Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args));
}
