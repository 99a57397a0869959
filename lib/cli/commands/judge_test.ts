import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { judgeCommand, judgeSubcommands } from "./judge.ts";
import { startOpenAiServer } from "../../../tests/support/openai_server.ts";

async function pairsFile(dir: string): Promise<string> {
  const path = join(dir, "pairs.jsonl");
  await Deno.writeTextFile(
    path,
    [
      {
        id: "a",
        question: "Who founded the museum?",
        context: "The museum was founded by Clara Berg.",
      },
      { id: "b", question: "When did it open?", context: "Tickets cost ten euros." },
      { id: "c", question: "Who runs it?", context: "The server breaks on this one." },
    ].map((p) => JSON.stringify(p)).join("\n"),
  );
  return path;
}

Deno.test("crux judge answerability --backend openai writes one line per pair in input order", async () => {
  const dir = await Deno.makeTempDir();
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      if (prompt.includes("server breaks")) return { status: 500, message: "overloaded" };
      return { content: prompt.includes("founded") ? "5" : "no answer here" };
    },
  });
  const out = join(dir, "sub", "out.jsonl");
  const io = memoryIo();
  const code = await main(
    [
      "judge",
      "answerability",
      "--input",
      await pairsFile(dir),
      "--out",
      out,
      "--model",
      "m",
      "--base-url",
      server.url,
      "--workspace",
      join(dir, "ws"),
      "--max-retries",
      "0",
    ],
    io,
    [judgeCommand],
  );
  assert.equal(code, 0, io.stderr());
  const lines = (await Deno.readTextFile(out)).split("\n");
  assert.deepEqual(lines.slice(0, 2), [
    '{"id":"a","rating":5,"status":"ok","raw":"5"}',
    '{"id":"b","rating":-1,"status":"unparsed","raw":"no answer here"}',
  ]);
  // A failed call: no model output in raw, the reason in error.
  const failed = JSON.parse(lines[2]);
  assert.deepEqual(Object.keys(failed), ["id", "rating", "status", "raw", "error"]);
  assert.deepEqual([failed.id, failed.rating, failed.status, failed.raw], [
    "c",
    -1,
    "failed",
    null,
  ]);
  assert.match(failed.error, /^Failed after 1 attempt\(s\): HTTP 500 .*overloaded/);
  assert.equal(lines[3], "");
  assert.equal(io.stdout(), `Judged 3 pairs with m: 1 ok, 1 unparsed, 1 failed -> ${out}\n`);
  assert.match(io.stderr(), /answerability 3\/3 \(100\.0%\)/);
  assert.deepEqual(
    [...(await Array.fromAsync(Deno.readDir(join(dir, "sub"))))].map((e) => e.name),
    ["out.jsonl"],
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux judge: usage errors, help and the subcommand map", async () => {
  const io = memoryIo();
  assert.equal(await main(["judge", "answerability", "--out", "x"], io, [judgeCommand]), 2);
  assert.match(io.stderr(), /--input and --out are required/);
  const io2 = memoryIo();
  assert.equal(
    await main(["judge", "answerability", "--input", "a", "--out", "b", "--backend", "gpt"], io2, [
      judgeCommand,
    ]),
    2,
  );
  assert.match(io2.stderr(), /Unknown backend "gpt": use openai, lexical or offline/);
  const io3 = memoryIo();
  assert.equal(await main(["judge", "nuggets"], io3, [judgeCommand]), 2);
  assert.match(io3.stderr(), /Unknown judging step "nuggets": use answerability or reports/);
  const io4 = memoryIo();
  assert.equal(await main(["judge", "answerability", "--help"], io4, [judgeCommand]), 0);
  assert.match(io4.stdout(), /^Usage: crux judge answerability --input PAIRS.jsonl/);
  // The help documents every output field, including raw on failures and error.
  for (const field of ["id", "rating", "status", "raw", "error"]) {
    assert.match(io4.stdout(), new RegExp(`^  ${field} +\\S`, "m"), field);
  }
  assert.match(io4.stdout(), /null when the call failed/);
  const io5 = memoryIo();
  assert.equal(await main(["judge", "--help"], io5, [judgeCommand]), 0);
  assert.match(io5.stdout(), /answerability\s+rate \(question, context\) pairs 0-5/);
  assert.deepEqual(Object.keys(judgeSubcommands), ["answerability", "reports"]);
  const dir = await Deno.makeTempDir();
  const bad = join(dir, "bad.jsonl");
  await Deno.writeTextFile(bad, '{"id":"a"}\n');
  const io6 = memoryIo();
  assert.equal(
    await main(
      ["judge", "answerability", "--input", bad, "--out", join(dir, "o"), "--backend", "lexical"],
      io6,
      [judgeCommand],
    ),
    1,
  );
  assert.match(io6.stderr(), /bad.jsonl:1: question: expected a string/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux judge answerability refuses model flags with the lexical backend", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/p.jsonl`, '{"id":"1","question":"q?","context":"c"}\n');
    const io = memoryIo();
    const code = await main(
      [
        "judge",
        "answerability",
        "--input",
        `${dir}/p.jsonl`,
        "--out",
        `${dir}/o.jsonl`,
        "--backend",
        "lexical",
        "--model",
        "m",
      ],
      io,
      [judgeCommand],
    );
    assert.equal(code, 2);
    assert.match(io.stderr(), /--backend lexical conflicts with --model/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
