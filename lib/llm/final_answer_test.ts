import assert from "node:assert/strict";
import { finalAnswer, readingFinalAnswer } from "./final_answer.ts";
import { LlmClient } from "./llm_client.ts";
import type { ParseResult } from "./types.ts";

Deno.test("finalAnswer removes closed, cut and prompt-opened reasoning", () => {
  assert.equal(finalAnswer("<think>\nRating: 5?\n</think>\n\nRating: 3"), "Rating: 3");
  assert.equal(finalAnswer("<THINKING>a</THINKING> b <think>c</think> d"), "b  d");
  assert.equal(finalAnswer("<reasoning>[1] > [2]</reasoning>[2] > [1]"), "[2] > [1]");
  // Cut while thinking: nothing was answered.
  assert.equal(finalAnswer("<think>It could be core"), "");
  assert.equal(finalAnswer("Answer: <think>maybe yes"), "Answer:");
  // The opening tag was part of the prompt: all before the closing tag is reasoning.
  assert.equal(finalAnswer("weighing 4 or 5\n</think>\n4"), "4");
  // Blocks do not nest: an opening tag inside reasoning is part of it.
  assert.equal(finalAnswer("<think>I must not write <think> here</think>yes"), "yes");
  assert.equal(finalAnswer("no tags at all "), "no tags at all");
  assert.equal(finalAnswer("◁think▷Maybe [No].◁/think▷[Yes]"), "[Yes]");
  // Channels: the final one is the answer; an analysis alone answers nothing.
  assert.equal(
    finalAnswer(
      "<|channel|>analysis<|message|>Rating 5?<|end|><|start|>assistant<|channel|>final<|message|>Rating: 3<|return|>",
    ),
    "Rating: 3",
  );
  assert.equal(finalAnswer("<|channel|>analysis<|message|>Rating: 5"), "");
});

Deno.test("readingFinalAnswer keeps the whole text as the raw answer of a failure", () => {
  const digit = (t: string): ParseResult<number> =>
    /^\d$/.test(t) ? { ok: true, value: Number(t) } : { ok: false, raw: t, reason: "no digit" };
  assert.deepEqual(readingFinalAnswer(digit)("<think>5</think>\n3"), { ok: true, value: 3 });
  assert.deepEqual(readingFinalAnswer(digit)("<think>5"), {
    ok: false,
    raw: "<think>5",
    reason: "no digit",
  });
});

Deno.test("the client hands parsers the final answer: no <think> block, no reasoning field", async () => {
  // A server answering as reasoning models do: reasoning in the content and in
  // separate `reasoning_content` / `reasoning` fields.
  const replies: Record<string, Record<string, unknown>> = {
    inline: { content: "<think>The rating is 5.</think>\n\n3" },
    field: { content: "2", reasoning_content: "Rating: 5, surely 5" },
    both: { content: "4", reasoning: "1" },
    cut: { content: "<think>Maybe 5" },
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const body = await req.json() as { messages: { content: string }[] };
    const message = { role: "assistant", ...replies[body.messages[0].content] };
    return Response.json({
      choices: [{ index: 0, message, finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
  });
  try {
    const seen: string[] = [];
    const digit = (t: string): ParseResult<number> => {
      seen.push(t);
      return /^\d$/.test(t)
        ? { ok: true, value: Number(t) }
        : { ok: false, raw: t, reason: "no digit" };
    };
    const client = new LlmClient({
      baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
      model: "m",
      apiKey: "k",
      maxRetries: 0,
    });
    const recs = await client.chatMany(
      Object.keys(replies).map((k) => ({ messages: [{ role: "user" as const, content: k }] })),
      { parse: digit },
    );
    assert.deepEqual(recs.map((r) => r.parsed?.ok ? r.parsed.value : "unparsed"), [
      3,
      2,
      4,
      "unparsed",
    ]);
    // The parser never saw reasoning; a failure keeps the whole text.
    assert.ok(seen.every((t) => !/think|Rating|surely/.test(t)), JSON.stringify(seen));
    assert.deepEqual(recs[3].parsed, { ok: false, raw: "<think>Maybe 5", reason: "no digit" });
  } finally {
    await server.shutdown();
  }
});
