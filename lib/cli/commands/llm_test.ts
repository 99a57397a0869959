import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { llmCommand } from "./llm.ts";
import { judgeCommand } from "./judge.ts";
import { startOpenAiServer } from "../../../tests/support/openai_server.ts";

Deno.test("crux llm stats reports calls, hits, failures, tokens and cost per model and step", async () => {
  const dir = await Deno.makeTempDir();
  await using server = startOpenAiServer({
    chat: (req) =>
      req.messages.at(-1)!.content.includes("Q3")
        ? { status: 400 }
        : { content: "2", usage: { prompt_tokens: 100, completion_tokens: 1 } },
  });
  const pairs = join(dir, "pairs.jsonl");
  await Deno.writeTextFile(
    pairs,
    ["Q1", "Q2", "Q3"].map((q, i) => JSON.stringify({ id: `${i}`, question: q, context: "C" }))
      .join("\n"),
  );
  const ws = join(dir, "ws");
  const judge = [
    "judge",
    "answerability",
    "--input",
    pairs,
    "--out",
    join(dir, "o.jsonl"),
    "--model",
    "m",
    "--base-url",
    server.url,
    "--workspace",
    ws,
  ];
  await main(judge, memoryIo(), [judgeCommand]);
  await main(judge, memoryIo(), [judgeCommand]); // 2 hits; the failed call is retried
  const prices = join(dir, "prices.json");
  await Deno.writeTextFile(prices, JSON.stringify({ m: { input: 1000, output: 5000 } }));
  const io = memoryIo();
  assert.equal(
    await main(["llm", "stats", "--workspace", ws, "--prices", prices], io, [llmCommand]),
    0,
    io.stderr(),
  );
  assert.equal(
    io.stdout(),
    "model  step             calls  ok  unparsed  failed  pending  hits  attempts  in_tokens  out_tokens  cost_usd\n" +
      "m      answerability@2      3   2         0       1        0     2         4        200           2    0.2100\n",
  );
  const io2 = memoryIo();
  assert.equal(await main(["llm", "stats", "--workspace", ws, "--json"], io2, [llmCommand]), 0);
  assert.deepEqual(JSON.parse(io2.stdout()), {
    model: "m",
    template: "answerability@2",
    calls: 3,
    ok: 2,
    unparsed: 0,
    failed: 1,
    pending: 0,
    hits: 2,
    attempts: 4,
    promptTokens: 200,
    completionTokens: 2,
    costUsd: null,
  });
  const io3 = memoryIo();
  assert.equal(await main(["llm", "list"], io3, [llmCommand]), 2);
  await Deno.remove(dir, { recursive: true });
});
