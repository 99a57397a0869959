import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { batchCommand } from "./batch.ts";
import { judgeCommand } from "./judge.ts";
import { startOpenAiServer } from "../../../tests/support/openai_server.ts";

Deno.test("crux batch export, a batch run, crux batch import, then crux judge sends nothing", async () => {
  const dir = await Deno.makeTempDir();
  await using server = startOpenAiServer({ chat: () => ({ content: "0" }) });
  const pairs = join(dir, "pairs.jsonl");
  await Deno.writeTextFile(
    pairs,
    ['{"id":"x","question":"Q1","context":"C1"}', '{"id":"y","question":"Q2","context":"C2"}'].join(
      "\n",
    ),
  );
  const ws = join(dir, "ws");
  const common = ["--model", "m", "--base-url", server.url, "--workspace", ws];
  const requests = join(dir, "batch.jsonl");
  const io = memoryIo();
  assert.equal(
    await main(
      ["batch", "export", "answerability", "--input", pairs, "--out", requests, ...common],
      io,
      [batchCommand],
    ),
    0,
    io.stderr(),
  );
  assert.equal(io.stdout(), `Exported 2 requests to ${requests} (0 already cached)\n`);
  const lines = (await Deno.readTextFile(requests)).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines[0].body.max_tokens, 5);
  const output = join(dir, "out.jsonl");
  await Deno.writeTextFile(
    output,
    lines.map((l, i) =>
      JSON.stringify({
        id: `b${i}`,
        custom_id: l.custom_id,
        response: {
          status_code: 200,
          body: { choices: [{ message: { content: String(4 - i) } }] },
        },
        error: null,
      })
    ).join("\n"),
  );
  const io2 = memoryIo();
  assert.equal(
    await main(["batch", "import", "--file", output, "--workspace", ws], io2, [batchCommand]),
    0,
    io2.stderr(),
  );
  assert.equal(
    io2.stdout(),
    `Imported 2 answers and 0 failures from ${output} (0 already stored)\n`,
  );
  const ratings = join(dir, "ratings.jsonl");
  const io3 = memoryIo();
  assert.equal(
    await main(["judge", "answerability", "--input", pairs, "--out", ratings, ...common], io3, [
      judgeCommand,
    ]),
    0,
  );
  assert.equal(server.requests, 0);
  assert.equal(
    await Deno.readTextFile(ratings),
    '{"id":"x","rating":4,"status":"ok","raw":"4"}\n{"id":"y","rating":3,"status":"ok","raw":"3"}\n',
  );
  const io4 = memoryIo();
  assert.equal(
    await main(
      ["batch", "export", "answerability", "--input", pairs, "--out", requests, ...common],
      io4,
      [batchCommand],
    ),
    0,
  );
  assert.equal(io4.stdout(), `Exported 0 requests to ${requests} (2 already cached)\n`);
  const io5 = memoryIo();
  assert.equal(await main(["batch", "upload"], io5, [batchCommand]), 2);
  assert.match(io5.stderr(), /Unknown batch action "upload": use export or import/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("crux batch export: --config needs --out, a known --until, and a step name otherwise", async () => {
  const run = async (...args: string[]) => {
    const io = memoryIo();
    const code = await main(["batch", "export", ...args], io, [batchCommand]);
    return { code, err: io.stderr() };
  };
  const noOut = await run("--config", "x.json");
  assert.equal(noOut.code, 2);
  assert.match(noOut.err, /--config and --out are required/);
  const badStage = await run("--config", "x.json", "--out", "o.jsonl", "--until", "judging");
  assert.equal(badStage.code, 2);
  assert.match(badStage.err, /--until "judging" is not a stage; use one of .*judge/);
  const badStep = await run("nuggets");
  assert.equal(badStep.code, 2);
  assert.match(
    badStep.err,
    /Unknown step "nuggets" to export: use answerability, or --config FILE for an experiment/,
  );
});
