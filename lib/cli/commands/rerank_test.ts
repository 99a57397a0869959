import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { rerankCommand } from "./rerank.ts";
import { startOpenAiServer } from "../../../tests/support/openai_server.ts";

const jsonl = (...xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";

/** Topic t1 with four candidates (first stage: a, b, c, d) and topic t2 with one. */
async function inputs() {
  const dir = await Deno.makeTempDir();
  const p = (n: string) => join(dir, n);
  await Deno.writeTextFile(
    p("in.run"),
    "t1 Q0 a 1 4 bm25\nt1 Q0 b 2 3 bm25\nt1 Q0 c 3 2 bm25\nt1 Q0 d 4 1 bm25\nt2 Q0 e 1 1 bm25\n",
  );
  await Deno.writeTextFile(
    p("topics.jsonl"),
    jsonl({ id: "t1", request: "storm" }, { id: "t2", request: "quiet" }),
  );
  await Deno.writeTextFile(
    p("corpus.jsonl"),
    jsonl(
      { id: "a", contents: "storm" },
      { id: "b", contents: "flood flood" },
      { id: "c", contents: "storm flood" },
      { id: "d", contents: "sunny day" },
      { id: "e", contents: "calm" },
    ),
  );
  await Deno.writeTextFile(p("questions.json"), JSON.stringify({ t1: ["How bad was the flood?"] }));
  return p;
}

async function crux(args: string[]) {
  const io = memoryIo();
  const code = await main(["rerank", ...args], io, [rerankCommand]);
  return { code, out: io.stdout(), err: io.stderr() };
}

Deno.test("crux rerank --method lexical expands the request by sub-questions (offline)", async () => {
  const p = await inputs();
  const base = ["--run", p("in.run"), "--topics", p("topics.jsonl"), "--corpus", p("corpus.jsonl")];
  const r = await crux([
    ...base,
    "--subquestions",
    p("questions.json"),
    "--method",
    "lexical",
    "--out",
    p("out.run"),
  ]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /offline stand-in/);
  // "storm" + "flood" (see lexical_rerank_test): c matches both, b has flood twice, a storm once.
  assert.equal(
    await Deno.readTextFile(p("out.run")),
    "t1 Q0 c 1 4 bm25-lexical\nt1 Q0 b 2 3 bm25-lexical\nt1 Q0 a 3 2 bm25-lexical\n" +
      "t1 Q0 d 4 1 bm25-lexical\nt2 Q0 e 1 1 bm25-lexical\n",
  );
  // --depth 2: only a and b are reranked (b first on "flood"), c and d stay below.
  const cut = await crux([
    ...base,
    "--subquestions",
    p("questions.json"),
    "--method",
    "lexical",
    "--depth",
    "2",
    "--tag",
    "x",
    "--out",
    p("cut.run"),
  ]);
  assert.equal(cut.code, 0, cut.err);
  const firsts = (await Deno.readTextFile(p("cut.run"))).split("\n").slice(0, 4)
    .map((l) => l.split(" ")[2]);
  assert.deepEqual(firsts, ["b", "a", "c", "d"]);
  // Model flags never pass silently with the offline method.
  const stray = await crux([...base, "--method", "lexical", "--model", "m", "--out", p("o.run")]);
  assert.equal(stray.code, 2);
  assert.match(stray.err, /--model only apply to the model methods/);
  // A candidate without text names the corpus and the passage.
  await Deno.writeTextFile(p("small.jsonl"), jsonl({ id: "a", contents: "storm" }));
  const absent = await crux([
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("small.jsonl"),
    "--method",
    "lexical",
    "--out",
    p("o.run"),
  ]);
  assert.notEqual(absent.code, 0);
  assert.match(absent.err, /small\.jsonl: no passage "b" \(topic "t1"/);
});

Deno.test("crux rerank --method listwise writes the model's order; a re-run makes no call", async () => {
  const p = await inputs();
  // The model puts the passages in reverse alphabetical order of their text.
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      const lines = [...prompt.matchAll(/^\[(\d+)\] (.*)$/gm)];
      const order = lines.map((m, i) => [m[2], i] as const).sort((x, y) =>
        y[0].localeCompare(x[0])
      );
      return { content: order.map(([, i]) => `[${i + 1}]`).join(" > ") };
    },
  });
  const args = [
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--method",
    "listwise",
    "--model",
    "ranker",
    "--base-url",
    server.url,
    "--workspace",
    p("ws"),
    "--out",
    p("out.run"),
  ];
  const r = await crux(args);
  assert.equal(r.code, 0, r.err);
  // Texts: sunny day (d) > storm flood (c) > storm (a) > flood flood (b).
  assert.equal(
    await Deno.readTextFile(p("out.run")),
    "t1 Q0 d 1 4 bm25-listwise\nt1 Q0 c 2 3 bm25-listwise\nt1 Q0 a 3 2 bm25-listwise\n" +
      "t1 Q0 b 4 1 bm25-listwise\nt2 Q0 e 1 1 bm25-listwise\n",
  );
  assert.equal(server.requests, 2);
  assert.match(r.err, /2 window call\(s\); repairs: 0 missing/);
  const again = await crux(args);
  assert.equal(again.code, 0, again.err);
  assert.equal(server.requests, 2);
});

Deno.test("crux rerank --method setwise selects the top k by the model's choices", async () => {
  const p = await inputs();
  // The model picks the passage whose text comes last in alphabetical order.
  await using server = startOpenAiServer({
    chat: (req) => {
      const prompt = req.messages.at(-1)!.content;
      const set = [...prompt.matchAll(/^Passage ([A-Z]): (.*)$/gm)];
      return { content: set.reduce((a, b) => (b[2] > a[2] ? b : a))[1] };
    },
  });
  const args = (extra: string[]) => [
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--method",
    "setwise",
    "--model",
    "ranker",
    "--base-url",
    server.url,
    "--workspace",
    p("ws"),
    "--out",
    p("out.run"),
    ...extra,
  ];
  const r = await crux(args(["--c", "3", "--k", "2"]));
  assert.equal(r.code, 0, r.err);
  // Top 2: "sunny day" (d), "storm flood" (c); then a, b in first-stage order.
  assert.equal(
    await Deno.readTextFile(p("out.run")),
    "t1 Q0 d 1 4 bm25-setwise\nt1 Q0 c 2 3 bm25-setwise\nt1 Q0 a 3 2 bm25-setwise\n" +
      "t1 Q0 b 4 1 bm25-setwise\nt2 Q0 e 1 1 bm25-setwise\n",
  );
  // Heap of a, b, c, d with two children per node: heapify asks {b, d}, {a, d, c}, {a, b};
  // extracting d asks {c, a, b}; extracting c asks nothing more (k = 2). t2 asks nothing.
  assert.match(r.err, /4 comparison\(s\) \(per topic: t1 4, t2 0\)/);
  assert.equal(server.requests, 4);
  const wrong = await crux(args(["--window", "5"]));
  assert.equal(wrong.code, 2);
  assert.match(wrong.err, /--window do not apply to --method setwise/);
});

Deno.test("crux rerank --method pointwise orders passages by their parsed grade", async () => {
  const p = await inputs();
  // Grades: a 1, b no grade, c 2, d 2, e 0.
  const grade: Record<string, string> = {
    storm: "##final score: 1",
    "flood flood": "relevant, I think",
    "storm flood": "##final score: 2",
    "sunny day": "##final score: 2",
    calm: "##final score: 0",
  };
  await using server = startOpenAiServer({
    chat: (req) => ({
      content: grade[/Passage:\n(.*)$/.exec(req.messages.at(-1)!.content)![1]],
    }),
  });
  const r = await crux([
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--method",
    "pointwise",
    "--model",
    "grader",
    "--base-url",
    server.url,
    "--workspace",
    p("ws"),
    "--out",
    p("out.run"),
  ]);
  assert.equal(r.code, 0, r.err);
  // c and d tie at 2 (first-stage order), a 1, b ungraded below.
  const ids = (await Deno.readTextFile(p("out.run"))).trim().split("\n").map((l) =>
    l.split(" ")[2]
  );
  assert.deepEqual(ids, ["c", "d", "a", "b", "e"]);
  assert.match(r.err, /5 passage\(s\) graded; 1 without a grade/);
});

Deno.test("crux rerank --method mmr uses endpoint vectors with --model, TF-IDF without", async () => {
  const p = await inputs();
  // Run scores a 4, b 3, c 2, d 1 -> relevance 1, 2/3, 1/3, 0. Endpoint vectors: a and b the
  // same direction, c and d orthogonal to them and to each other.
  const table: Record<string, number[]> = {
    storm: [1, 0, 0],
    "flood flood": [1, 0, 0],
    "storm flood": [0, 1, 0],
    "sunny day": [0, 0, 1],
    calm: [1, 1, 1],
  };
  await using server = startOpenAiServer({ embed: (text) => table[text] });
  const base = [
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--method",
    "mmr",
  ];
  const online = await crux([
    ...base,
    "--model",
    "emb",
    "--base-url",
    server.url,
    "--workspace",
    p("ws"),
    "--out",
    p("mmr.run"),
  ]);
  assert.equal(online.code, 0, online.err);
  assert.match(online.err, /emb vectors from the embeddings endpoint/);
  // lambda 0.5: a (0.5); then b 1/3 - 1/2 < 0, c 1/6, d 0 -> c; then b -1/6, d 0 -> d; then b.
  const ids = async (f: string) =>
    (await Deno.readTextFile(p(f))).trim().split("\n").map((l) => l.split(" ")[2]);
  assert.deepEqual(await ids("mmr.run"), ["a", "c", "d", "b", "e"]);
  assert.ok(server.requests > 0);
  // Offline: TF-IDF vectors of the candidates. a and b share no term (cosine 0), so b follows a
  // (0.5 * 2/3); then c (1/6 minus half its cosine with a or b, both sharing a term) falls below
  // d (0, no shared term): a, b, d, c.
  const offline = await crux([...base, "--out", p("tfidf.run")]);
  assert.equal(offline.code, 0, offline.err);
  assert.match(offline.err, /TF-IDF vectors .* \(offline stand-in\)/);
  assert.deepEqual(await ids("tfidf.run"), ["a", "b", "d", "c", "e"]);
  const stray = await crux([...base, "--concurrency", "2", "--out", p("x.run")]);
  assert.equal(stray.code, 2);
  assert.match(stray.err, /--concurrency do not apply to --method mmr over TF-IDF/);
});

Deno.test("crux rerank --method listwise writes nothing when a call fails", async () => {
  const p = await inputs();
  await using server = startOpenAiServer({ chat: () => ({ status: 500, message: "down" }) });
  const r = await crux([
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--method",
    "listwise",
    "--model",
    "ranker",
    "--base-url",
    server.url,
    "--max-retries",
    "0",
    "--workspace",
    p("ws"),
    "--out",
    p("out.run"),
  ]);
  assert.equal(r.code, 1);
  assert.match(r.err, /2 topic\(s\) had failed calls \(first: topic "t1": .*HTTP 500/);
  await assert.rejects(() => Deno.stat(p("out.run")), Deno.errors.NotFound);
});

Deno.test("crux rerank --method first-token orders by the first label's logprobs, and reports the fallback", async () => {
  const p = await inputs();
  // Logprobs of the one token asked rank the passages in reverse alphabetical order of
  // their text; the permutation of the fallback call keeps the input order, so it shows
  // only when the logprobs are missing.
  const rule = (req: { messages: { content: string }[]; max_tokens?: number }) => {
    const lines = [...req.messages.at(-1)!.content.matchAll(/^\[([A-Z])\] (.*)$/gm)];
    const alts = lines.map((m, i) => ({ token: m[1], logprob: -i, text: m[2] }))
      .sort((x, y) => y.text.localeCompare(x.text))
      .map((a, rank) => ({ token: a.token, logprob: -rank }));
    if (req.max_tokens !== 1) return { content: lines.map((m) => m[1]).join(" > ") };
    return {
      content: alts[0].token,
      logprobs: [{ token: alts[0].token, logprob: 0, top: alts }],
    };
  };
  await using server = startOpenAiServer({ chat: rule });
  await using bare = startOpenAiServer({ logprobs: false, chat: rule });
  const args = (url: string, out: string) => [
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--method",
    "first-token",
    "--model",
    "ranker",
    "--base-url",
    url,
    "--workspace",
    p(out),
    "--out",
    p(`${out}.run`),
  ];
  const r = await crux(args(server.url, "ws"));
  assert.equal(r.code, 0, r.err);
  assert.equal(
    await Deno.readTextFile(p("ws.run")),
    "t1 Q0 d 1 4 bm25-first-token\nt1 Q0 c 2 3 bm25-first-token\n" +
      "t1 Q0 a 3 2 bm25-first-token\nt1 Q0 b 4 1 bm25-first-token\nt2 Q0 e 1 1 bm25-first-token\n",
  );
  assert.match(r.err, /2 window call\(s\); 2 ordered by the first label's log-probabilities, 0 by/);
  const f = await crux(args(bare.url, "bare"));
  assert.equal(f.code, 0, f.err);
  assert.match(
    f.err,
    /0 ordered by the first label's log-probabilities, 2 by the generated permutation \(FALLBACK/,
  );
  // The fallback is part of the run's name.
  assert.equal(
    await Deno.readTextFile(p("bare.run")),
    "t1 Q0 a 1 4 bm25-first-token-fallback\nt1 Q0 b 2 3 bm25-first-token-fallback\n" +
      "t1 Q0 c 3 2 bm25-first-token-fallback\nt1 Q0 d 4 1 bm25-first-token-fallback\n" +
      "t2 Q0 e 1 1 bm25-first-token-fallback\n",
  );
  const wide = await crux([...args(server.url, "ws"), "--window", "27"]);
  assert.equal(wide.code, 2);
  assert.match(wide.err, /--window must be at most 26 for --method first-token/);
});

Deno.test("crux rerank --method setwise-logprobs reads the labels' logprobs; counts comparisons", async () => {
  const p = await inputs();
  // The answer is always "A"; the logprobs favour the passage whose text comes last
  // in alphabetical order (as the setwise test's model chooses).
  await using server = startOpenAiServer({
    chat: (req) => {
      const set = [...req.messages.at(-1)!.content.matchAll(/^Passage ([A-Z]): (.*)$/gm)];
      const alts = [...set].sort((x, y) => y[2].localeCompare(x[2]))
        .map((m, rank) => ({ token: m[1], logprob: -rank }));
      const a = alts.find((x) => x.token === "A")!;
      return { content: "A", logprobs: [{ token: "A", logprob: a.logprob, top: alts }] };
    },
  });
  const r = await crux([
    "--run",
    p("in.run"),
    "--topics",
    p("topics.jsonl"),
    "--corpus",
    p("corpus.jsonl"),
    "--method",
    "setwise-logprobs",
    "--model",
    "ranker",
    "--base-url",
    server.url,
    "--workspace",
    p("ws"),
    "--out",
    p("out.run"),
    "--c",
    "3",
    "--k",
    "2",
  ]);
  assert.equal(r.code, 0, r.err);
  assert.equal(
    await Deno.readTextFile(p("out.run")),
    "t1 Q0 d 1 4 bm25-setwise-logprobs\nt1 Q0 c 2 3 bm25-setwise-logprobs\n" +
      "t1 Q0 a 3 2 bm25-setwise-logprobs\nt1 Q0 b 4 1 bm25-setwise-logprobs\n" +
      "t2 Q0 e 1 1 bm25-setwise-logprobs\n",
  );
  // The same heap sort as the setwise test: 4 comparisons for t1, none for t2.
  assert.match(
    r.err,
    /4 comparison\(s\) \(per topic: t1 4, t2 0\); 4 decided by log-probabilities, 0 by/,
  );
  assert.equal(server.requests, 4);
});
