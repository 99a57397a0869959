import assert from "node:assert/strict";
import { join } from "node:path";
import { loadExperimentConfigWith } from "./experiment_config.ts";
import { parseConfigJson } from "./config_json.ts";

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

Deno.test("parseConfigJson names list elements and the whole file, and keeps finite numbers", () => {
  assert.throws(
    () => parseConfigJson('{"a": [1, 2e999]}', "c.json", "config"),
    /Cannot read config "c\.json": field "a\[1\]" is 2e999, a number out of range/,
  );
  assert.throws(
    () => parseConfigJson("-1e999", "c.json", "config"),
    /field "\(the whole file\)" is -1e999/,
  );
  assert.deepEqual(parseConfigJson('{"x": 1.7976931348623157e308}', "c.json", "config"), {
    x: 1.7976931348623157e308,
  });
  assert.throws(() => parseConfigJson('{"x": 1,}', "c.json", "config"), /line 1 column 9/);
});
