/**
 * Config faults through the commands: `crux run --config` and a model command's
 * `--config` give the reader's located messages, exit 1, and no stack trace.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { parseConfigJson } from "../../lib/pipeline/mod.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, err: io.stderr() };
}

const enc = new TextEncoder();

Deno.test("crux run and a model command's --config report the same located faults, exit 1", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "c.json");
  await Deno.writeTextFile(file, '{"name": "x", "analysis": {"tau": 1e400}}');
  const run = await crux(["run", "--config", file]);
  assert.equal(run.code, 1);
  assert.match(run.err, /field "analysis\.tau" is 1e400, a number out of range/);
  assert.doesNotMatch(run.err, /got null| {4}at /);
  await Deno.writeTextFile(join(dir, "p.jsonl"), '{"id": "p", "question": "q", "context": "c"}\n');
  const judge = await crux([
    "judge",
    "answerability",
    "--input",
    join(dir, "p.jsonl"),
    "--out",
    join(dir, "o.jsonl"),
    "--config",
    dir,
    "--workspace",
    join(dir, "ws"),
  ]);
  assert.equal(judge.code, 1);
  assert.match(judge.err, new RegExp(`Cannot read config "${dir}": it is a folder, not a file`));
  const bom = join(dir, "llm.json");
  await Deno.writeFile(bom, new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('{"llm": {}}')]));
  assert.deepEqual(parseConfigJson(await Deno.readTextFile(bom), bom, "config"), { llm: {} });
});
