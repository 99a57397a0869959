import assert from "node:assert/strict";
import { join } from "node:path";
import { loadExperimentConfigWith } from "./experiment_config.ts";
import { parseConfigJson } from "./config_json.ts";
import { main } from "../cli/main.ts";
import { memoryIo } from "../cli/command.ts";
import { COMMANDS } from "../cli/registry.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, err: io.stderr() };
}

const enc = new TextEncoder();

Deno.test("an experiment config with a byte-order mark reads like one without", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "c.json");
  const body = enc.encode('{"name": "bom", "analysis": {"tau": 4}}\n');
  await Deno.writeFile(file, new Uint8Array([0xef, 0xbb, 0xbf, ...body]));
  const cfg = await loadExperimentConfigWith(file, [], { root: dir });
  assert.equal(cfg.name, "bom");
  assert.equal(cfg.workspace, join(dir, "outputs", "bom"));
  assert.deepEqual(cfg.analysis, { tau: 4 });
});

Deno.test("config faults are located: bad UTF-8, JSON syntax, numbers out of range, folders, missing files", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "c.json");
  // Line 3, column 12 holds the byte 0xff ("  "name": " is 11 characters).
  const lines = ["{\n", '  "backend": "offline",\n', '  "name": "', "\n"];
  await Deno.writeFile(
    file,
    new Uint8Array([...enc.encode(lines.join("").slice(0, -1)), 0xff, ...enc.encode('"\n}\n')]),
  );
  await assert.rejects(
    loadExperimentConfigWith(file, []),
    /c\.json:3: not valid UTF-8 \(byte 0xff at column 12\)/,
  );
  await Deno.writeTextFile(file, '{\n  "name": "x",\n  "analysis": {"tau": 1e400}\n}\n');
  await assert.rejects(
    loadExperimentConfigWith(file, []),
    /c\.json": field "analysis\.tau" is 1e400, a number out of range/,
  );
  await Deno.writeTextFile(file, '{"name": "x", "retrieve": [{"name": "b", "k": -2e999}]}');
  await assert.rejects(
    loadExperimentConfigWith(file, []),
    /field "retrieve\[0\]\.k" is -2e999, a number out of range/,
  );
  await Deno.writeTextFile(file, '{\n  "name": "x",\n  "backend" "offline"\n}\n');
  await assert.rejects(loadExperimentConfigWith(file, []), /line 3 column 13.*fix the JSON/);
  await assert.rejects(
    loadExperimentConfigWith(dir, []),
    new RegExp(`Cannot read experiment config "${dir}": it is a folder, not a file`),
  );
  await assert.rejects(
    loadExperimentConfigWith(join(dir, "nope.json"), []),
    /Cannot read experiment config ".*nope\.json": no such file/,
  );
});

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
