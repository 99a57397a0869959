/**
 * Outputs pointed at the wrong place are refused before any work starts: a run
 * written into the index it searches, an analysis folder holding a user's own
 * files under the names an analysis saves.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";
import { COMPARE_ANALYSES } from "../../lib/cli/commands/compare.ts";
import { openWorkspace } from "../../lib/store/mod.ts";
import { methodMeasureRows } from "../../lib/pipeline/testdata/method_measures.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) { for (const [k, v] of await files(p)) out.set(k, v); }
    else out.set(p, Array.from(await Deno.readFile(p)).join(","));
  }
  return out;
}

Deno.test("crux search refuses a run written into the index folder it reads", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    join(dir, "p.jsonl"),
    '{"id": "a", "contents": "storm coast"}\n{"id": "b", "contents": "market fell"}\n',
  );
  await Deno.writeTextFile(join(dir, "t.jsonl"), '{"id": "q", "request": "storm"}\n');
  const idx = join(dir, "idx");
  assert.equal((await crux(["index", "--passages", join(dir, "p.jsonl"), "--out", idx])).code, 0);
  const before = await files(idx);
  for (const name of Object.keys(Object.fromEntries(before))) {
    const target = name; // every file of the index, and a new file inside it
    const r = await crux([
      "search",
      "--index",
      idx,
      "--topics",
      join(dir, "t.jsonl"),
      "--out",
      target,
    ]);
    assert.equal(r.code, 1);
    assert.match(r.err, /it is inside input folder --index/);
  }
  const fresh = await crux([
    "search",
    "--index",
    idx,
    "--topics",
    join(dir, "t.jsonl"),
    "--out",
    join(idx, "new.run"),
  ]);
  assert.equal(fresh.code, 1);
  assert.deepEqual(await files(idx), before);
  // Outside the index it writes as usual, and the index still searches.
  const ok = await crux([
    "search",
    "--index",
    idx,
    "--topics",
    join(dir, "t.jsonl"),
    "--out",
    join(dir, "r.run"),
  ]);
  assert.equal(ok.code, 0, ok.err);
  assert.match(await Deno.readTextFile(join(dir, "r.run")), /^q Q0 a 1 /);
});

Deno.test("crux compare --out refuses a folder with a user's file under an analysis name, before work", async () => {
  const ws = await Deno.makeTempDir();
  const w = await openWorkspace(ws);
  await w.upsert("measures", methodMeasureRows());
  w.close();
  const out = await Deno.makeTempDir();
  await Deno.mkdir(join(out, "tables"));
  await Deno.writeTextFile(join(out, "tables", "method_correlations.csv"), "my own numbers\n");
  await Deno.writeTextFile(join(out, "tables", "unrelated.csv"), "keep\n");
  const before = await files(out);
  const r = await crux(["compare", "--workspace", ws, "--out", out, "--trials", "50"]);
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /Refusing to write --out ".*": it is a folder with 1 entry; --out writes a folder of saved analyses/,
  );
  assert.equal(r.out, "", "nothing was computed or printed");
  assert.deepEqual(await files(out), before);
  // A fresh folder is filled; a second run replaces only the workbench's own files.
  const fresh = join(out, "cmp");
  assert.equal(
    (await crux(["compare", "--workspace", ws, "--out", fresh, "--trials", "50"])).code,
    0,
  );
  const saved = [...(await files(join(fresh, "tables"))).keys()].map((p) =>
    p.split("/").pop()!.split(".")[0]
  );
  assert.deepEqual(
    [...new Set(saved)].sort(),
    [...COMPARE_ANALYSES].filter((n) => saved.includes(n)).sort(),
  );
  assert.ok(saved.includes("method_system") && saved.includes("method_correlations"));
  assert.equal(
    (await crux(["compare", "--workspace", ws, "--out", fresh, "--trials", "50"])).code,
    0,
  );
});
