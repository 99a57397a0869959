import assert from "node:assert/strict";
import { join } from "node:path";
import {
  describeFound,
  guardOutputs,
  inspectPath,
  jsonlOf,
  OutputConflictError,
  QRELS_FILE,
  RUN_FILE,
  sniffContent,
} from "./guard_outputs.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("sniffContent recognises the workbench's files and the binary formats it names", () => {
  // A DuckDB file carries "DUCK" at offset 8.
  const duck = new Uint8Array(64);
  duck.set(bytes("DUCK"), 8);
  assert.equal(sniffContent(duck, false), "duckdb");
  assert.equal(sniffContent(bytes("PAR1\x15\x04"), false), "parquet");
  assert.equal(sniffContent(bytes("%PDF-1.7\n"), true), "pdf");
  assert.equal(sniffContent(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1]), true), "png");
  assert.equal(sniffContent(bytes("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1 bm25\n"), true), "run");
  assert.equal(sniffContent(bytes("q1 0 d1 2\nq1 0 d2 0\n"), true), "qrels");
  assert.equal(sniffContent(bytes('{"id": 1}\n{"id": 2}\n'), true), "jsonl");
  assert.equal(sniffContent(bytes('{\n  "a": [1, 2]\n}\n'), true), "json");
  assert.equal(sniffContent(bytes("topic_id,request\nt1,storms\n"), true), "csv");
  assert.equal(sniffContent(bytes("Dear diary, today\nI wrote code.\n"), true), "text");
  assert.equal(sniffContent(new Uint8Array([0x61, 0xff, 0x62]), true), "binary");
  assert.equal(sniffContent(new Uint8Array(), true), "empty");
  // A head cut inside a line judges only the complete lines.
  assert.equal(sniffContent(bytes("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.0 b"), false), "run");
});

Deno.test("inspectPath names workspace, index, analysis and JSONL folders, and a JSONL file's fields", async () => {
  const dir = await Deno.makeTempDir();
  const sub = async (name: string, files: Record<string, string>) => {
    await Deno.mkdir(join(dir, name));
    for (const [f, text] of Object.entries(files)) {
      await Deno.writeTextFile(join(dir, name, f), text);
    }
    return join(dir, name);
  };
  const holds = async (p: string) => {
    const f = await inspectPath(p);
    return f.type === "missing" ? "missing" : f.holds;
  };
  assert.equal(await holds(await sub("ws", { "workspace.duckdb": "x" })), "workspace");
  assert.equal(
    await holds(await sub("idx", { "manifest.json": '{"format": "crux-bm25"}' })),
    "index",
  );
  assert.equal(await holds(await sub("cmp", { "analyses.json": "{}" })), "analyses");
  assert.equal(await holds(await sub("labels", { "a.jsonl": '{"x": 1}\n' })), "jsonl-files");
  assert.equal(
    await holds(await sub("mixed", { "a.jsonl": '{"x": 1}\n', "b.txt": "hi\n" })),
    "folder",
  );
  assert.equal(await holds(join(dir, "nothing")), "missing");
  await Deno.writeTextFile(join(dir, "t.jsonl"), '{"id": "t1", "request": "r"}\n');
  assert.deepEqual(await inspectPath(join(dir, "t.jsonl")), {
    type: "file",
    holds: "jsonl",
    size: 29, // 28 characters and the newline
    keys: ["id", "request"],
  });
  assert.equal(
    describeFound({ type: "folder", holds: "folder", entries: 2 }),
    "a folder with 2 entries",
  );
  assert.equal(
    describeFound({ type: "file", holds: "run", size: 2048 }),
    "a TREC run file (2.0 KB)",
  );
});

Deno.test("guardOutputs replaces only a file of the same kind, never inside an index or another workspace", async () => {
  const dir = await Deno.makeTempDir();
  const p = (...n: string[]) => join(dir, ...n);
  await Deno.writeTextFile(p("old.run"), "q Q0 d 1 1.0 x\n");
  await Deno.writeTextFile(p("old.qrels"), "q 0 d 1\n");
  await guardOutputs({ outputs: { "--out": { path: p("old.run"), kind: RUN_FILE } } });
  await guardOutputs({ outputs: { "--out": { path: p("new.run"), kind: RUN_FILE } } });
  await assert.rejects(
    guardOutputs({ outputs: { "--out": { path: p("old.qrels"), kind: RUN_FILE } } }),
    /it is a TREC qrels file \(8 bytes\); --out writes a TREC run file/,
  );
  await assert.rejects(
    guardOutputs({ outputs: { "--out": { path: p("old.run"), kind: QRELS_FILE } } }),
    OutputConflictError,
  );
  // A bare path is a file of no known kind: new or empty only.
  await assert.rejects(guardOutputs({ outputs: { "--out": p("old.run") } }), /a new file/);
  const kp = jsonlOf("key points (JSONL)", ["qid", "keypoints"]);
  await Deno.writeTextFile(p("kp.jsonl"), '{"qid": "q", "keypoints": []}\n');
  await Deno.writeTextFile(p("t.jsonl"), '{"id": "q", "request": "r"}\n');
  await guardOutputs({ outputs: { "--out": { path: p("kp.jsonl"), kind: kp } } });
  await assert.rejects(
    guardOutputs({ outputs: { "--out": { path: p("t.jsonl"), kind: kp } } }),
    /with fields id, request; --out writes key points \(JSONL\)/,
  );
  await Deno.mkdir(p("ws"));
  await Deno.writeTextFile(p("ws", "workspace.duckdb"), "");
  await assert.rejects(
    guardOutputs({ outputs: { "--out": { path: p("ws", "sub", "x.run"), kind: RUN_FILE } } }),
    /inside the workspace folder/,
  );
  // The command's own workspace folder may hold its outputs, not its database.
  await guardOutputs({
    outputs: { "--out": { path: p("ws", "x.run"), kind: RUN_FILE } },
    workspace: p("ws"),
  });
  await assert.rejects(
    guardOutputs({
      outputs: { "--out": { path: p("ws", "workspace.duckdb"), kind: RUN_FILE } },
      workspace: p("ws"),
    }),
    /it is the workspace file/,
  );
  await Deno.mkdir(p("idx"));
  await Deno.writeTextFile(p("idx", "manifest.json"), '{"format": "crux-bm25"}');
  await assert.rejects(
    guardOutputs({ outputs: { "--out": { path: p("idx", "deep", "x.run"), kind: RUN_FILE } } }),
    /inside the index folder/,
  );
});
