/**
 * The list of `crux` subcommands. Each command lives in `commands/<name>.ts`
 * and is registered here once.
 *
 * @module
 */
import type { Command } from "./command.ts";

/** All subcommands, in the order `crux --help` lists them. */
export const COMMANDS: Command[] = [];
