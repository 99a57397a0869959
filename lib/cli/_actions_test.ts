import assert from "node:assert/strict";
import { runAction } from "./_actions.ts";
import { memoryIo, UsageError } from "./command.ts";

const spec = {
  what: "demo action",
  actions: {
    hello: (args: string[], io: { out(t: string): void }) => {
      io.out(`hello ${args.join(" ")}\n`);
      return Promise.resolve(0);
    },
    bye: () => Promise.resolve(3),
  },
  help: (action?: string) => (action ? `help of ${action}\n` : "command help\n"),
};

Deno.test("runAction runs the named action with the remaining arguments", async () => {
  const io = memoryIo();
  assert.equal(await runAction(["hello", "a", "b"], io, spec), 0);
  assert.equal(io.stdout(), "hello a b\n");
  assert.equal(await runAction(["bye"], memoryIo(), spec), 3);
});

Deno.test("runAction prints help and rejects unknown actions", async () => {
  const none = memoryIo();
  assert.equal(await runAction([], none, spec), 2);
  assert.equal(none.stdout(), "command help\n");
  const top = memoryIo();
  assert.equal(await runAction(["--help"], top, spec), 0);
  assert.equal(top.stdout(), "command help\n");
  const sub = memoryIo();
  assert.equal(await runAction(["hello", "-h"], sub, spec), 0);
  assert.equal(sub.stdout(), "help of hello\n");
  await assert.rejects(
    () => runAction(["wave"], memoryIo(), spec),
    (e: Error) =>
      e instanceof UsageError && e.message === 'Unknown demo action "wave": use hello or bye',
  );
});
