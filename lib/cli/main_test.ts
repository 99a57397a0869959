import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { main } from "./main.ts";
import { type Command, memoryIo, UsageError } from "./command.ts";

const echo: Command = {
  name: "echo",
  summary: "prints its --text",
  help: "Usage: crux echo --text T\n",
  run(args, io) {
    const { values } = parseArgs({ args, options: { text: { type: "string" } } });
    if (values.text === "") throw new UsageError("--text must not be empty");
    if (values.text === "boom") throw new Error("Cannot echo: boom");
    io.out(`${values.text}\n`);
    return Promise.resolve(0);
  },
};

Deno.test("main dispatches, prints help and maps errors to exit codes", async () => {
  const ok = memoryIo();
  assert.equal(await main(["echo", "--text", "hi"], ok, [echo]), 0);
  assert.equal(ok.stdout(), "hi\n");

  const help = memoryIo();
  assert.equal(await main(["echo", "--help"], help, [echo]), 0);
  assert.equal(help.stdout(), "Usage: crux echo --text T\n");

  const top = memoryIo();
  assert.equal(await main([], top, [echo]), 2);
  assert.match(top.stdout(), /echo +prints its --text/);

  const unknown = memoryIo();
  assert.equal(await main(["nope"], unknown, [echo]), 2);
  assert.match(unknown.stderr(), /Unknown command "nope"/);

  // An option parseArgs does not know is a usage error (exit 2), not a failure.
  const badFlag = memoryIo();
  assert.equal(await main(["echo", "--bogus"], badFlag, [echo]), 2);
  assert.match(
    badFlag.stderr(),
    /crux echo: Unknown option '--bogus'\nRun `deno task crux echo --help`/,
  );

  const usage = memoryIo();
  assert.equal(await main(["echo", "--text", ""], usage, [echo]), 2);
  assert.match(usage.stderr(), /--text must not be empty/);

  const failed = memoryIo();
  assert.equal(await main(["echo", "--text", "boom"], failed, [echo]), 1);
  assert.equal(failed.stderr(), "crux echo: Cannot echo: boom\n");
});

Deno.test("lazy commands are loaded only when they run", async () => {
  let loads = 0;
  const lazy = {
    name: "echo",
    summary: "prints its --text",
    load: () => {
      loads++;
      return Promise.resolve(echo);
    },
  };
  const io = memoryIo();
  assert.equal(await main(["--help"], io, [lazy]), 0);
  assert.equal(loads, 0);
  assert.equal(await main(["echo", "--text", "x"], io, [lazy]), 0);
  assert.equal(loads, 1);
});
