/**
 * The list of `crux` subcommands. Each command lives in `commands/<name>.ts`
 * and is registered here once.
 *
 * @module
 */
import type { Command } from "./command.ts";
import { demoCommand } from "./commands/demo.ts";
import { importCommand } from "./commands/import.ts";
import { exportCommand } from "./commands/export.ts";
import { evalCommand } from "./commands/eval.ts";
import { judgeCommand } from "./commands/judge.ts";

/** All subcommands, in the order `crux --help` lists them. */
export const COMMANDS: Command[] = [
  demoCommand,
  importCommand,
  evalCommand,
  judgeCommand,
  exportCommand,
];
