/**
 * Acceptance: a scripted judge answering in the styles real models use (the
 * rating corpus: prose, ranges, counts, question numbers, bold, fences,
 * refusals, cut answers) yields, through `crux judge answerability`, the stated
 * rating or -1 for every answer, never another number. The server holds to the
 * request's `max_tokens` as an endpoint does, so chatty answers are cut at 5
 * tokens and must be asked again with a larger limit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { judgeCommand } from "@lib/cli/commands/judge.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { withTokenLimit } from "../support/token_limit.ts";
import { itemOf, readJsonl } from "./_fixtures.ts";

const corpus = JSON.parse(
  await Deno.readTextFile(new URL("../parsers/answers/rating.json", import.meta.url)),
) as { cases: { answer: string; expect: number | "unparsed"; why: string }[] };

/** The corpus, plus an answer that never ends within any limit (cut twice, so -1). */
const ANSWERS = [
  ...corpus.cases,
  {
    answer: Array.from({ length: 300 }, () => "the context").join(" ") + " Rating: 4",
    expect: "unparsed" as const,
    why: "rambles past every token limit",
  },
];

Deno.test("judge answerability: every answer style yields the stated rating or -1", async () => {
  const dir = await Deno.makeTempDir();
  const limits = new Map<number, unknown[]>();
  await using server = startOpenAiServer({
    chat: (req) => {
      const i = itemOf(req.messages.at(-1)!.content);
      limits.set(i, [...(limits.get(i) ?? []), req.max_tokens]);
      return withTokenLimit(ANSWERS[i].answer, req.max_tokens);
    },
  });
  const input = join(dir, "pairs.jsonl");
  await Deno.writeTextFile(
    input,
    ANSWERS.map((_, i) =>
      JSON.stringify({
        id: `p${i}`,
        question: `What happened to item number ${i} in the ledger?`,
        context: `Item number ${i} was moved.`,
      })
    ).join("\n") + "\n",
  );
  const out = join(dir, "out.jsonl");
  const io = memoryIo();
  const args = ["judge", "answerability", "--input", input, "--out", out, "--model", "m"];
  const code = await main(
    [...args, "--base-url", server.url, "--workspace", join(dir, "ws")],
    io,
    [judgeCommand],
  );
  assert.equal(code, 0, io.stderr());
  const rows = await readJsonl(out);
  assert.equal(rows.length, ANSWERS.length);
  const wrong: string[] = [];
  rows.forEach((r, i) => {
    const { answer, expect, why } = ANSWERS[i];
    const want = expect === "unparsed" ? -1 : expect;
    if (r.rating !== want) {
      wrong.push(`${JSON.stringify(answer.slice(0, 60))} (${why}): ${r.rating}, expected ${want}`);
    }
    if (want === -1 && answer.trim() === "") {
      // An empty answer is a failed call (asked again on a re-run), not an answer.
      assert.equal(r.status, "failed", `${why}: status`);
    } else if (want === -1) {
      assert.equal(r.status, "unparsed", `${why}: status`);
      if (i < corpus.cases.length) assert.equal(r.raw, answer, `${why}: the raw text is kept`);
    } else assert.equal(r.status, "ok", `${why}: status`);
  });
  assert.deepEqual(wrong, []);
  // Hand-checked: "Based on 2 passages, the rating is 4" is cut at 5 tokens, asked again at 261.
  const based = ANSWERS.findIndex((a) => a.answer === "Based on 2 passages, the rating is 4");
  assert.deepEqual(limits.get(based), [5, 261]);
  assert.equal(rows[based].rating, 4);
  assert.deepEqual(limits.get(ANSWERS.length - 1), [5, 261]);
  assert.equal(
    rows[ANSWERS.length - 1].raw,
    Array.from({ length: 261 }, (_, k) => k % 2 ? "context" : "the").join(" "),
  );
  // A short answer is asked once.
  assert.deepEqual(limits.get(0), [5]);
  await Deno.remove(dir, { recursive: true });
});
