/**
 * Dispatching on the first word of a command's arguments (`crux judge
 * answerability`, `crux batch export`, `crux llm stats`).
 *
 * @module
 */
import { type Io, UsageError } from "./command.ts";

/** An action of a command: runs with the arguments after its name. */
export type Action = (args: string[], io: Io) => Promise<number>;

/**
 * Runs the action named by `args[0]`. `--help` (anywhere) prints the help of
 * the action when one is named, else the command's help.
 *
 * @param args The command's arguments.
 * @param io Output streams.
 * @param spec `what` names the actions in messages (e.g. `batch action`), `actions`
 *   maps names to runners, `help` gives the help text of an action (or of the command
 *   for undefined).
 * @returns The action's exit code; 0 after help; 2 when no action is named.
 * @throws {UsageError} On an unknown action name.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runAction } from "@lib/cli/_actions.ts";
 * import { memoryIo } from "@lib/cli/command.ts";
 * const io = memoryIo();
 * assert.equal(await runAction(["hello"], io, {
 *   what: "demo action",
 *   actions: { hello: (_args, out) => Promise.resolve((out.out("hi\n"), 0)) },
 *   help: () => "Usage: demo hello\n",
 * }), 0);
 * assert.equal(io.stdout(), "hi\n");
 * ```
 */
export async function runAction(
  args: string[],
  io: Io,
  spec: { what: string; actions: Record<string, Action>; help: (action?: string) => string },
): Promise<number> {
  const [name, ...rest] = args;
  if (!name || name === "--help" || name === "-h") {
    io.out(spec.help());
    return name ? 0 : 2;
  }
  const action = spec.actions[name];
  if (!action) {
    const names = Object.keys(spec.actions);
    const list = names.length > 1
      ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`
      : names.join("");
    throw new UsageError(`Unknown ${spec.what} "${name}": use ${list}`);
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(spec.help(name));
    return 0;
  }
  return await action(rest, io);
}
