import assert from "node:assert/strict";
import { CallCache, LlmClient } from "@lib/llm/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import {
  classifySubquestions,
  decomposeQuestions,
  judgeCoverage,
  pairwiseJudge,
} from "@lib/subq/mod.ts";
import { startOpenAiServer } from "../support/openai_server.ts";

const user = (req: { messages: { content: string }[] }) => req.messages.at(-1)!.content;

function rule(req: { messages: { content: string }[] }, info: { count: number }) {
  const u = user(req);
  if (u.startsWith("Complex question:")) {
    if (u.includes("hopeless")) return { content: "I cannot list them." };
    // First answer is prose, the re-ask (a new request key: other temperature) is JSON.
    return req.messages.length && (req as { temperature?: number }).temperature === 0
      ? { content: "Here they are: 1. Who? 2. When?" }
      : { content: '["1. Who built the dam?", "When did it fail?", "Who built the dam?"]' };
  }
  if (u.includes("Which type is this sub-question?")) {
    // One sub-question per call. The first answer about the dam's builder names two types
    // (never guessed: re-asked), the re-ask names one; the other is answered in bold prose.
    if (u.slice(u.lastIndexOf("Sub-question: ")).startsWith("Sub-question: Who built the dam?")) {
      return (req as { temperature?: number }).temperature === 0
        ? { content: "Either core or background." }
        : { content: "Core." };
    }
    return { content: "**Follow up**" };
  }
  if (u.startsWith("Question:") && u.includes("Does the text answer")) {
    if (u.includes("invented")) {
      return { content: '{"label": "answered", "span": "words that are not there"}' };
    }
    return { content: '{"label": "answered", "span": "failed in May"}' };
  }
  if (u.includes("Answer 1:")) {
    if (u.includes("biased")) return { content: '{"better": "1"}' }; // always the first shown
    const first = u.slice(u.indexOf("Answer 1:"), u.indexOf("Answer 2:"));
    return { content: JSON.stringify({ better: first.includes("good") ? "1" : "2" }) };
  }
  void info;
  return { content: "?" };
}

Deno.test("subq steps against the loopback server: re-asks within bounds, flagged spans, both orders, cached re-run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-subq-llm-" });
  await using server = startOpenAiServer({ chat: rule });
  const ws = await openWorkspace(dir);
  try {
    const client = new LlmClient({
      baseUrl: server.url,
      model: "m",
      cache: await CallCache.open(ws.connection),
    });
    const all = async () => {
      const dec = await decomposeQuestions([
        { id: "d", question: "Why did the dam fail?" },
        { id: "h", question: "A hopeless question?" },
      ], { client, n: 5 });
      const typed = await classifySubquestions([
        { id: "d", question: "Why did the dam fail?", subQuestions: dec[0].subQuestions },
      ], { client });
      const cov = await judgeCoverage([
        {
          id: "ok",
          subQuestion: "When did it fail?",
          text: "The dam was old. It failed in May after rain.",
        },
        { id: "bad", subQuestion: "Who invented it?", text: "The dam was old." },
      ], { client });
      const pw = await pairwiseJudge([
        { id: "agree", question: "Q?", answerA: "a good answer", answerB: "a poor answer" },
        { id: "swap", question: "Q?", answerA: "good B", answerB: "good A" },
        { id: "bias", question: "biased?", answerA: "x", answerB: "y" },
      ], { client });
      return { dec, typed, cov, pw };
    };
    const r = await all();
    // Decomposition: numbering stripped, duplicates dropped; the hopeless one re-asked twice.
    assert.deepEqual(r.dec[0].subQuestions, ["Who built the dam?", "When did it fail?"]);
    assert.equal(r.dec[0].status, "ok");
    assert.equal(r.dec[1].status, "unparsed");
    assert.equal(r.dec[1].raw, "I cannot list them.");
    assert.deepEqual(r.typed[0].types, ["core", "follow-up"]);
    // Coverage: span located ("failed" is word 5 of 10, from 0 -> 50 %); a span not in the text is flagged.
    assert.deepEqual([r.cov[0].answered, r.cov[0].spanFound, r.cov[0].position], [true, true, 50]);
    assert.deepEqual([r.cov[1].answered, r.cov[1].spanFound, r.cov[1].position], [
      true,
      false,
      null,
    ]);
    // Pairwise: both orders asked; agreement wins, a position-biased judge ties.
    assert.deepEqual(r.pw.map((p) => [p.forward, p.swapped, p.verdict]), [
      ["A", "A", "A"],
      ["A", "B", "tie"], // "good" in both: the first shown wins each time
      ["A", "B", "tie"],
    ]);
    const pairwiseCalls = (await ws.query<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM llm_calls WHERE template LIKE 'subq_pairwise%'",
    ))[0].n;
    assert.equal(pairwiseCalls, 6, "three pairs in both orders");
    // 2 + 3 (hopeless: 1 + 2 re-asks) decompositions... counted by the server:
    const before = server.requests;
    assert.equal(before, 2 + 3 + 3 + 2 + 6, "decompose 2+3, classify 2+1, coverage 2, pairwise 6");
    await all();
    // A re-run answers every result from the cache and asks again only what is still
    // unparsed: the hopeless decomposition's last re-ask.
    assert.equal(server.requests, before + 1, "a re-run asks only the unparsed item again");
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sub-question typing: one call per sub-question, the built-in few-shot examples unless a labelled file's replace them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-subq-type-" });
  const prompts: string[] = [];
  await using server = startOpenAiServer({
    chat: (req) => {
      prompts.push(user(req));
      return { content: "background" };
    },
  });
  const ws = await openWorkspace(dir);
  try {
    const client = new LlmClient({
      baseUrl: server.url,
      model: "m",
      cache: await CallCache.open(ws.connection),
    });
    const input = [{
      id: "q",
      question: "Why did the dam fail?",
      subQuestions: ["A?", "B?", "C?"],
    }];
    const [builtin] = await classifySubquestions(input, { client });
    assert.deepEqual(builtin.types, ["background", "background", "background"]);
    assert.equal(prompts.length, 3);
    assert.ok(prompts.every((p) => p.includes("Main question: Why did the city's new tram line")));
    assert.deepEqual(
      prompts.map((p) => p.slice(p.lastIndexOf("Sub-question: "))).map((p) => p.split("\n")[0]),
      [
        "Sub-question: A?",
        "Sub-question: B?",
        "Sub-question: C?",
      ],
    );
    prompts.length = 0;
    const examples = [{
      question: "Is tea healthy?",
      subQuestions: [{ text: "What is in tea?", type: "core" as const }],
    }];
    await classifySubquestions([{ ...input[0], subQuestions: ["A?"] }], { client, examples });
    assert.equal(prompts.length, 1);
    assert.match(
      prompts[0],
      /Main question: Is tea healthy\?\nSub-question: What is in tea\?\nType: core/,
    );
    assert.ok(
      !prompts[0].includes("tram line"),
      "the labelled file's examples replace the built-in ones",
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
