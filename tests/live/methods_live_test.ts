/**
 * The live tier: each method's online path on two sample topics against a real
 * OpenAI-compatible endpoint, checking the shapes of the answers and how many
 * of them the readers could parse. Runs only with CRUX_LIVE_BASE_URL and
 * CRUX_LIVE_MODEL set (CRUX_LIVE_API_KEY when the endpoint needs a key);
 * otherwise every test is skipped and the reason printed. Calls are cached in a
 * temporary workspace, so the steps that reuse an answer do not pay for it twice.
 *
 *   CRUX_LIVE_BASE_URL=https://api.example.com/v1 CRUX_LIVE_API_KEY=... \
 *   CRUX_LIVE_MODEL=gpt-4o-mini deno test -A tests/live/methods_live_test.ts
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CallCache, llmAnswerabilityJudge, LlmClient } from "@lib/llm/mod.ts";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { buildQuestions } from "@lib/construct/mod.ts";
import { llmNuggetBackend } from "@lib/nuggets/mod.ts";
import { llmEntailer, llmExtractor } from "@lib/keypoints/mod.ts";
import {
  classifySubquestions,
  decomposeQuestions,
  judgeCoverage,
  pairwiseJudge,
} from "@lib/subq/mod.ts";

const env = (k: string) => Deno.env.get(k)?.trim() || undefined;
const BASE_URL = env("CRUX_LIVE_BASE_URL");
const MODEL = env("CRUX_LIVE_MODEL");
const API_KEY = env("CRUX_LIVE_API_KEY");
const missing = [!BASE_URL && "CRUX_LIVE_BASE_URL", !MODEL && "CRUX_LIVE_MODEL"].filter(Boolean);
const SKIP = missing.length
  ? `live tier skipped: set ${
    missing.join(" and ")
  } (and CRUX_LIVE_API_KEY if the endpoint needs one)`
  : "";
if (SKIP) console.log(SKIP);

/** Least share of answers a reader must parse for the step to pass. */
const MIN_PARSED = 0.8;

const SAMPLE = new URL("../../datasets/sample/", import.meta.url).pathname;
const TOPICS = ["sample-01", "sample-02"];

interface SampleTopic {
  id: string;
  request: string;
  summary: string;
  passages: string[];
  questions: string[];
}

async function sample(): Promise<SampleTopic[]> {
  const lines = async (f: string) =>
    (await Deno.readTextFile(join(SAMPLE, f))).trim().split("\n").map((l) => JSON.parse(l));
  const topics = await lines("topics.jsonl");
  const corpus = await lines("corpus.jsonl");
  const questions = JSON.parse(await Deno.readTextFile(join(SAMPLE, "questions.json")));
  return TOPICS.map((id) => {
    const t = topics.find((x: { id: string }) => x.id === id);
    return {
      id,
      request: t.request,
      summary: t.summary,
      passages: corpus.filter((p: { id: string }) => p.id.startsWith(`${id}:`)).slice(0, 4)
        .map((p: { contents: string }) => p.contents),
      questions: (questions[id] as string[]).slice(0, 3),
    };
  });
}

/** A client on the live endpoint with a cache in a fresh temporary workspace. */
async function live(): Promise<
  { client: LlmClient; ws: Workspace; topics: SampleTopic[] } & AsyncDisposable
> {
  const dir = await Deno.makeTempDir({ prefix: "crux-live-" });
  const ws = await openWorkspace(dir);
  const client = new LlmClient({
    baseUrl: BASE_URL!,
    apiKey: API_KEY,
    model: MODEL!,
    cache: await CallCache.open(ws.connection),
  });
  return {
    client,
    ws,
    topics: await sample(),
    [Symbol.asyncDispose]: async () => {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function parseRate(step: string, parsed: number, total: number): void {
  assert.ok(total > 0, `${step}: nothing was asked`);
  const rate = parsed / total;
  console.log(`${step}: ${parsed}/${total} answers parsed (${(rate * 100).toFixed(0)} %)`);
  assert.ok(rate >= MIN_PARSED, `${step}: only ${parsed} of ${total} answers parsed`);
}

const opts = { ignore: !!SKIP, sanitizeResources: false, sanitizeOps: false };
const named = (name: string) => SKIP ? `${name} (${SKIP})` : name;

Deno.test({
  ...opts,
  name: named("live CRUX: sub-questions from the summary and graded answerability 0-5"),
  fn: async () => {
    await using l = await live();
    await l.ws.upsert(
      "topics",
      l.topics.map((t) => ({
        topicId: t.id,
        request: t.request,
        summary: t.summary,
        source: "sample",
      })),
    );
    const s = await buildQuestions(l.ws, { client: l.client, n: { default: 5 } });
    parseRate("CRUX sub-questions", s.topics, l.topics.length);
    const made = await l.ws.query<{ t: string; n: number }>(
      "SELECT topic_id AS t, count(*)::INT AS n FROM questions GROUP BY ALL",
    );
    for (const r of made) {
      assert.ok(r.n >= 1 && r.n <= 5, `${r.t}: ${r.n} sub-questions, asked for 5`);
    }
    const pairs = l.topics.flatMap((t) =>
      t.questions.flatMap((q, i) =>
        t.passages.slice(0, 2).map((p, j) => ({ id: `${t.id}/${i}/${j}`, question: q, context: p }))
      )
    );
    const rated = await llmAnswerabilityJudge(l.client).rate(pairs);
    assert.equal(rated.length, pairs.length);
    for (const r of rated) {
      assert.ok(
        r.status === "ok" ? r.rating >= 0 && r.rating <= 5 : r.rating === -1,
        JSON.stringify(r),
      );
    }
    parseRate("CRUX answerability", rated.filter((r) => r.status === "ok").length, rated.length);
  },
});

Deno.test({
  ...opts,
  name: named("live nuggets: creation, importance and assignment windows"),
  fn: async () => {
    await using l = await live();
    const backend = llmNuggetBackend(l.client);
    const created = await Promise.all(
      l.topics.map((t) =>
        backend.create({ query: t.request, nuggets: [], passages: t.passages, maxNuggets: 30 })
      ),
    );
    parseRate("nugget creation", created.filter((c) => c.status === "ok").length, created.length);
    const lists = created.map((c) => c.value ?? []);
    for (const list of lists) {
      assert.ok(
        list.length <= 30 && list.every((n) => typeof n === "string" && n.trim()),
        JSON.stringify(list),
      );
    }
    const windows = l.topics.map((t, i) => ({
      query: t.request,
      nuggets: lists[i].slice(0, 10),
      passages: t.passages,
    }))
      .filter((w) => w.nuggets.length);
    const labels = await backend.label(windows);
    labels.forEach((o, i) => {
      if (o.status === "ok") assert.equal(o.value!.length, windows[i].nuggets.length);
    });
    parseRate("nugget importance", labels.filter((o) => o.status === "ok").length, labels.length);
    const assigned = await backend.assign(
      windows.map((w, i) => ({ query: w.query, answer: l.topics[i].summary, nuggets: w.nuggets })),
    );
    assigned.forEach((o, i) => {
      if (o.status === "ok") assert.equal(o.value!.length, windows[i].nuggets.length);
    });
    parseRate(
      "nugget assignment",
      assigned.filter((o) => o.status === "ok").length,
      assigned.length,
    );
  },
});

Deno.test({
  ...opts,
  name: named(
    "live key points: extraction in two rounds with spans, entailment yes / no / neutral",
  ),
  fn: async () => {
    await using l = await live();
    const inputs = l.topics.flatMap((t) =>
      t.passages.slice(0, 2).map((d, j) => ({
        id: `${t.id}/${j}`,
        question: t.request,
        document: d,
      }))
    );
    const extracted = await llmExtractor(l.client).extract(inputs);
    parseRate(
      "key point extraction",
      extracted.filter((r) => r.status === "ok").length,
      extracted.length,
    );
    for (const r of extracted) {
      assert.ok(r.rounds >= 1 && r.rounds <= 2, `${r.id}: ${r.rounds} rounds`);
      for (const p of r.points) {
        assert.ok(p.text.trim() && Array.isArray(p.spans), JSON.stringify(p));
      }
    }
    const pairs = extracted.flatMap((r, i) =>
      r.points.slice(0, 3).map((p, k) => ({
        id: `${r.id}/${k}`,
        keypoint: p.text,
        response: l.topics[Math.floor(i / 2)].summary,
      }))
    );
    const judged = await llmEntailer(l.client).judge(pairs);
    for (const v of judged) {
      assert.ok(v.label === null || ["yes", "no", "neutral"].includes(v.label), JSON.stringify(v));
    }
    parseRate(
      "key point entailment",
      judged.filter((v) => v.status === "ok").length,
      judged.length,
    );
  },
});

Deno.test({
  ...opts,
  name: named("live sub-questions: decomposition, typing one by one, coverage, pairwise judging"),
  fn: async () => {
    await using l = await live();
    const dec = await decomposeQuestions(
      l.topics.map((t) => ({ id: t.id, question: t.request })),
      { client: l.client, n: 8 },
    );
    parseRate("decomposition", dec.filter((d) => d.status === "ok").length, dec.length);
    for (const d of dec) {
      assert.ok(d.subQuestions.length <= 8, `${d.id}: ${d.subQuestions.length} sub-questions`);
    }
    const typed = await classifySubquestions(
      dec.map((d, i) => ({
        id: d.id,
        question: l.topics[i].request,
        subQuestions: d.subQuestions,
      })),
      { client: l.client },
    );
    const types = typed.flatMap((t) => t.types);
    for (const t of types) {
      assert.ok(t === null || ["core", "background", "follow-up"].includes(t), `${t}`);
    }
    parseRate("typing", types.filter((t) => t !== null).length, types.length);
    const cov = await judgeCoverage(
      dec.flatMap((d, i) =>
        d.subQuestions.slice(0, 4).map((q, k) => ({
          id: `${d.id}/${k}`,
          subQuestion: q,
          text: l.topics[i].summary,
        }))
      ),
      { client: l.client },
    );
    parseRate("coverage", cov.filter((c) => c.answered !== null).length, cov.length);
    const pw = await pairwiseJudge(
      l.topics.map((t) => ({
        id: t.id,
        question: t.request,
        answerA: t.summary,
        answerB: t.passages[0],
      })),
      { client: l.client },
    );
    const verdicts = pw.flatMap((p) => [p.forward, p.swapped]);
    for (const p of pw) assert.ok(["A", "B", "tie"].includes(p.verdict), JSON.stringify(p));
    parseRate("pairwise", verdicts.filter((v) => v !== null).length, verdicts.length);
  },
});
