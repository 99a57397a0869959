/**
 * Every command with an output, pointed at something it does not own, is
 * refused before any work and leaves every byte in place: another experiment's
 * workspace database and folder, an index folder and the files inside it, a
 * non-empty folder, files of other kinds (a PDF, notes, a run where JSONL goes
 * and JSONL where a run goes) and the command's own workspace files. The list of
 * cases is checked against the output options the command sources declare, so a
 * new command with `--out` cannot be left out.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { main } from "../../lib/cli/main.ts";
import { memoryIo } from "../../lib/cli/command.ts";
import { COMMANDS } from "../../lib/cli/registry.ts";

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(args, io, COMMANDS);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** Every file below `path` (or the file itself) with its bytes. */
async function snapshot(path: string, out = new Map<string, string>()) {
  const info = await Deno.stat(path);
  if (!info.isDirectory) {
    out.set(path, Array.from(await Deno.readFile(path)).join(","));
    return out;
  }
  out.set(path, "<dir>");
  for await (const e of Deno.readDir(path)) await snapshot(join(path, e.name), out);
  return out;
}

/** Output options declared in the command sources, as `file option` pairs. */
async function declaredOutputs(): Promise<Set<string>> {
  const dir = new URL("../../lib/cli/commands/", import.meta.url);
  const found = new Set<string>();
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".ts") || e.name.endsWith("_test.ts")) continue;
    const text = await Deno.readTextFile(new URL(e.name, dir));
    for (const m of text.matchAll(/^\s+"?(out[\w-]*|scores|statements)"?: \{ type: "string"/gm)) {
      found.add(`${e.name} --${m[1]}`);
    }
  }
  return found;
}

/** `records`: JSONL of one record format, recognised by its fields (not any JSONL). */
type Shape = "run" | "qrels" | "records" | "jsonl" | "json" | "csv" | "index" | "folder";
interface Case {
  /** The source file declaring the option, and the option. */
  file: string;
  option: string;
  shape: Shape;
  /** The command line with the output at `target`. */
  args: (target: string) => string[];
  /** True when the command opens the fixture's own workspace. */
  ownWorkspace?: boolean;
}

Deno.test("every output refuses what it does not own, before any work, leaving the bytes unchanged", async () => {
  const dir = await Deno.makeTempDir();
  const p = (...names: string[]) => join(dir, ...names);
  const write = (name: string, text: string) => Deno.writeTextFile(p(name), text);
  await write(
    "passages.jsonl",
    '{"id": "t1:0#0", "contents": "A hurricane hit the coast."}\n' +
      '{"id": "t2:0#1", "contents": "Markets fell in Tokyo."}\n',
  );
  await write("topics.jsonl", '{"id": "t1", "request": "hurricane"}\n');
  await write("judgments.jsonl", '{"id": "t1", "docid": "t1:0#0", "rating": [5, 0]}\n');
  await write("pairs.jsonl", '{"id": "p1", "question": "Where?", "context": "The coast."}\n');
  await write("in.run", "t1 Q0 t1:0#0 1 2.5 bm25\n");
  await write("in.json", '{"x": 1}\n');
  // Targets of other kinds.
  const pdf = "%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n";
  await write("paper.pdf", pdf);
  await write("notes.txt", "Meeting notes, keep.\nSecond line\n");
  await write("other.run", "q9 Q0 d9 1 1.5 mine\n");
  await write(
    "other.jsonl",
    '{"id": "mine", "text": "my data"}\n{"id": "mine2", "text": "more"}\n',
  );
  await Deno.mkdir(p("full"));
  await write("full/notes.txt", "keep me\n");
  assert.equal(
    (await crux(["index", "--passages", p("passages.jsonl"), "--out", p("idx")])).code,
    0,
  );
  assert.equal(
    (await crux(["index", "--passages", p("passages.jsonl"), "--out", p("idx2")])).code,
    0,
  );
  const imported = await crux(["import", "sample", "--workspace", p("ws")]);
  assert.equal(imported.code, 0, imported.err);
  // Another experiment: a copy of the workspace folder.
  await Deno.mkdir(p("other"));
  for await (const e of Deno.readDir(p("ws"))) {
    if (e.isFile) await Deno.copyFile(p("ws", e.name), p("other", e.name));
  }
  await Deno.writeTextFile(p("other", "llm_journal.jsonl"), '{"key": "k", "text": "x"}\n');
  await write("cfg.json", JSON.stringify({ name: "x", workspace: p("ws") }));

  const ws = ["--workspace", p("ws")];
  const cases: Case[] = [
    {
      file: "index.ts",
      option: "--out",
      shape: "index",
      args: (t) => ["index", "--passages", p("passages.jsonl"), "--out", t],
    },
    {
      file: "search.ts",
      option: "--out",
      shape: "run",
      args: (t) => ["search", "--index", p("idx"), "--topics", p("topics.jsonl"), "--out", t],
    },
    {
      file: "rerank.ts",
      option: "--out",
      shape: "run",
      args: (
        t,
      ) => [
        "rerank",
        "--run",
        p("in.run"),
        "--topics",
        p("topics.jsonl"),
        "--corpus",
        p("passages.jsonl"),
        "--method",
        "lexical",
        "--out",
        t,
      ],
    },
    {
      file: "construct.ts",
      option: "--out-qrels",
      shape: "qrels",
      args: (
        t,
      ) => [
        "construct",
        "select",
        "--judgments",
        p("judgments.jsonl"),
        "--out-qrels",
        t,
        "--out-div-qrels",
        p("new-div.txt"),
      ],
    },
    {
      file: "construct.ts",
      option: "--out-div-qrels",
      shape: "qrels",
      args: (
        t,
      ) => [
        "construct",
        "select",
        "--judgments",
        p("judgments.jsonl"),
        "--out-qrels",
        p("new-q.txt"),
        "--out-div-qrels",
        t,
      ],
    },
    {
      file: "construct.ts",
      option: "--out",
      shape: "records",
      ownWorkspace: true,
      args: (t) => ["construct", "corpus", ...ws, "--out", t],
    },
    {
      file: "judge.ts",
      option: "--out",
      shape: "records",
      ownWorkspace: true,
      args: (
        t,
      ) => [
        "judge",
        "answerability",
        "--input",
        p("pairs.jsonl"),
        "--out",
        t,
        "--backend",
        "lexical",
        ...ws,
      ],
    },
    {
      file: "batch.ts",
      option: "--out",
      shape: "records",
      ownWorkspace: true,
      args: (
        t,
      ) => [
        "batch",
        "export",
        "answerability",
        "--input",
        p("pairs.jsonl"),
        "--out",
        t,
        "--model",
        "m",
        ...ws,
      ],
    },
    {
      file: "batch.ts",
      option: "--out",
      shape: "records",
      ownWorkspace: true,
      args: (t) => ["batch", "export", "--config", p("cfg.json"), "--out", t],
    },
    {
      file: "_nugget_actions.ts",
      option: "--out",
      shape: "records",
      ownWorkspace: true,
      args: (t) => ["nuggets", "create", ...ws, "--out", t],
    },
    {
      file: "_nugget_actions.ts",
      option: "--out",
      shape: "records",
      ownWorkspace: true,
      args: (t) => ["nuggets", "label", ...ws, "--nuggets", p("other.jsonl"), "--out", t],
    },
    {
      file: "_nugget_actions.ts",
      option: "--out",
      shape: "records",
      ownWorkspace: true,
      args: (
        t,
      ) => [
        "nuggets",
        "assign",
        ...ws,
        "--nuggets",
        p("other.jsonl"),
        "--answers",
        p("pairs.jsonl"),
        "--out",
        t,
      ],
    },
    {
      file: "_nugget_actions.ts",
      option: "--scores",
      shape: "records",
      ownWorkspace: true,
      args: (
        t,
      ) => [
        "nuggets",
        "assign",
        ...ws,
        "--nuggets",
        p("other.jsonl"),
        "--answers",
        p("pairs.jsonl"),
        "--scores",
        t,
      ],
    },
    {
      file: "nuggets.ts",
      option: "--out",
      shape: "records",
      args: (t) => ["nuggets", "score", "--assignments", p("pairs.jsonl"), "--out", t],
    },
    {
      file: "_keypoints_make.ts",
      option: "--out",
      shape: "records",
      args: (t) => ["keypoints", "extract", "--questions", p("pairs.jsonl"), "--out", t],
    },
    {
      file: "_keypoints_make.ts",
      option: "--out",
      shape: "records",
      args: (t) => ["keypoints", "merge", "--keypoints", p("pairs.jsonl"), "--out", t],
    },
    {
      file: "_keypoints_make.ts",
      option: "--out",
      shape: "records",
      args: (
        t,
      ) => [
        "keypoints",
        "judge",
        "--keypoints",
        p("pairs.jsonl"),
        "--responses",
        p("topics.jsonl"),
        "--out",
        t,
      ],
    },
    {
      file: "_keypoints_make.ts",
      option: "--statements",
      shape: "records",
      args: (
        t,
      ) => [
        "keypoints",
        "judge",
        "--keypoints",
        p("pairs.jsonl"),
        "--responses",
        p("topics.jsonl"),
        "--out",
        p("new-ent.jsonl"),
        "--statements",
        t,
      ],
    },
    {
      file: "_keypoints_respond.ts",
      option: "--out",
      shape: "records",
      args: (
        t,
      ) => ["keypoints", "respond", "--questions", p("pairs.jsonl"), "--out", t, "--run", "r"],
    },
    {
      file: "_subq_setup.ts",
      option: "--out",
      shape: "json",
      args: (t) => ["subq", "decompose", "--questions", p("topics.jsonl"), "--out", t],
    },
    {
      file: "_subq_setup.ts",
      option: "--out",
      shape: "json",
      args: (t) => ["subq", "classify", "--decompositions", p("in.json"), "--out", t],
    },
    {
      file: "_subq_setup.ts",
      option: "--out",
      shape: "json",
      args: (
        t,
      ) => [
        "subq",
        "judge",
        "--decompositions",
        p("in.json"),
        "--answers",
        p("pairs.jsonl"),
        "--out",
        t,
      ],
    },
    {
      file: "annotate.ts",
      option: "--out",
      shape: "folder",
      ownWorkspace: true,
      args: (t) => ["annotate", "export", ...ws, "--task", "answerability", "--out", t],
    },
    {
      file: "export.ts",
      option: "--out",
      shape: "csv",
      ownWorkspace: true,
      args: (t) => ["export", ...ws, "--table", "topics", "--format", "csv", "--out", t],
    },
    {
      file: "export.ts",
      option: "--out",
      shape: "run",
      ownWorkspace: true,
      args: (t) => ["export", ...ws, "--table", "runs", "--format", "trec", "--out", t],
    },
    {
      file: "compare.ts",
      option: "--out",
      shape: "folder",
      ownWorkspace: true,
      args: (t) => ["compare", ...ws, "--out", t],
    },
  ];

  // The list covers every output option the command sources declare.
  const covered = new Set(cases.map((c) => `${c.file} ${c.option}`));
  // `keypoints score --statements` reads the file `keypoints judge --statements` writes.
  const inputs = new Set(["_keypoints_score.ts --statements"]);
  for (const declared of await declaredOutputs()) {
    if (inputs.has(declared)) continue;
    assert.ok(covered.has(declared), `no case for ${declared}: add the command to this test`);
  }
  for (const c of COMMANDS) {
    if (["search", "rerank", "index", "judge", "export", "compare"].includes(c.name)) {
      assert.ok(cases.some((k) => k.args("T")[0] === c.name), c.name);
    }
  }

  const targets = (c: Case): string[] => {
    const file = c.shape !== "index" && c.shape !== "folder";
    const list = [
      p("other", "workspace.duckdb"), // another experiment's database
      p("other", "llm_journal.jsonl"), // and its answer journal
      p("other", file ? "new.out" : "new-folder"), // a new path inside another workspace
      p("idx2", "manifest.json"), // a file of an index folder
      p("idx2", "postings.bin"),
      p("idx2", file ? "new.out" : "nested"), // a new path inside an index
      p("full"), // a non-empty folder
      p("paper.pdf"), // files of other kinds
      p("notes.txt"),
    ];
    if (c.shape !== "index") list.push(p("idx2"), p("other"));
    if (c.shape !== "run") list.push(p("other.run"));
    if (c.shape !== "jsonl" && c.shape !== "json") list.push(p("other.jsonl"));
    if (c.ownWorkspace) list.push(p("ws", "workspace.duckdb"));
    if (!file && c.ownWorkspace && c.shape !== "folder") list.push(p("ws"));
    return list;
  };

  // Load every command's code once, so the timing below measures the refusal alone.
  for (const name of new Set(cases.map((c) => c.args("T")[0]))) await crux([name, "--help"]);

  const watched = [p("other"), p("idx2"), p("full"), p("paper.pdf"), p("notes.txt")];
  const before = new Map<string, string>();
  for (const w of [...watched, p("other.run"), p("other.jsonl")]) await snapshot(w, before);
  let tried = 0;
  for (const c of cases) {
    for (const target of targets(c)) {
      const args = c.args(target);
      const label = `${args.slice(0, 2).join(" ")} ${c.option} ${target.slice(dir.length + 1)}`;
      const wsBefore = c.ownWorkspace && target.startsWith(p("ws"))
        ? await snapshot(target)
        : undefined;
      const t0 = performance.now();
      const r = await crux(args);
      const ms = performance.now() - t0;
      assert.equal(r.code, 1, `${label}: exit ${r.code}\n${r.err}`);
      assert.match(
        r.err,
        new RegExp(
          `Refusing to write ${c.option} "${
            target.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")
          }": it (is|holds)`,
        ),
        label,
      );
      assert.equal(r.out, "", `${label}: nothing computed or printed`);
      if (target === p("other", "workspace.duckdb")) {
        // What it holds is named, and where.
        assert.match(
          r.err,
          /it is (a file, not a folder: )?a DuckDB database \(\d+\.\d (KB|MB)\) in the workspace folder/,
          label,
        );
      }
      assert.ok(ms < 1500, `${label}: refused after ${ms.toFixed(0)} ms`);
      if (wsBefore) assert.deepEqual(await snapshot(target), wsBefore, label);
      tried++;
    }
  }
  const after = new Map<string, string>();
  for (const w of [...watched, p("other.run"), p("other.jsonl")]) await snapshot(w, after);
  assert.deepEqual(after, before);
  // No output was created anywhere: the fixture holds only what it held.
  for (const name of ["new-div.txt", "new-q.txt", "new-ent.jsonl"]) {
    await assert.rejects(Deno.stat(p(name)), Deno.errors.NotFound, name);
  }
  assert.ok(tried >= cases.length * 9, `${tried} refusals`);
  assert.equal(basename(p("ws")), "ws");
});

Deno.test("an output of the same kind written before is replaced; a new path is written", async () => {
  const dir = await Deno.makeTempDir();
  const p = (n: string) => join(dir, n);
  await Deno.writeTextFile(p("passages.jsonl"), '{"id": "a", "contents": "storm coast"}\n');
  await Deno.writeTextFile(p("t.jsonl"), '{"id": "q", "request": "storm"}\n');
  assert.equal(
    (await crux(["index", "--passages", p("passages.jsonl"), "--out", p("idx")])).code,
    0,
  );
  const search = (out: string) =>
    crux(["search", "--index", p("idx"), "--topics", p("t.jsonl"), "--out", out, "--tag", "x"]);
  await Deno.writeTextFile(p("old.run"), "q Q0 zzz 1 9.0 old\n");
  const r = await search(p("old.run"));
  assert.equal(r.code, 0, r.err);
  assert.match(await Deno.readTextFile(p("old.run")), /^q Q0 a 1 \S+ x\n$/);
  await Deno.writeTextFile(p("empty.run"), "");
  assert.equal((await search(p("empty.run"))).code, 0);
  // A JSONL file where a run goes is refused, naming what it holds and its size.
  await Deno.writeTextFile(p("x.jsonl"), '{"id": 1}\n');
  const bad = await search(p("x.jsonl"));
  assert.equal(bad.code, 1);
  assert.match(
    bad.err,
    /it is a JSONL file \(10 bytes\); --out writes a TREC run file, and replaces only a TREC run file written before/,
  );
  // A folder where the run goes: a message, not a raw rename error.
  await Deno.mkdir(p("d"));
  await Deno.writeTextFile(p("d/a.txt"), "x");
  const folder = await search(p("d"));
  assert.match(folder.err, /it is a folder, not a file: a folder with 1 entry/);
  assert.doesNotMatch(folder.err, /os error/);
  // JSONL of one format is not replaced by JSONL of another: judgments never over topics.
  await Deno.writeTextFile(
    p("pairs.jsonl"),
    '{"id": "p1", "question": "Where?", "context": "coast"}\n',
  );
  const judge = (out: string) =>
    crux([
      "judge",
      "answerability",
      "--input",
      p("pairs.jsonl"),
      "--out",
      out,
      "--backend",
      "lexical",
      "--workspace",
      p("ws"),
    ]);
  assert.equal((await judge(p("ratings.jsonl"))).code, 0);
  const again = await judge(p("ratings.jsonl"));
  assert.equal(again.code, 0, again.err);
  const topics = await Deno.readFile(p("t.jsonl"));
  const over = await judge(p("t.jsonl"));
  assert.equal(over.code, 1);
  assert.match(
    over.err,
    /it is a JSONL file \(32 bytes\) with fields id, request; --out writes answerability judgments/,
  );
  assert.deepEqual(await Deno.readFile(p("t.jsonl")), topics);
});
