import assert from "node:assert/strict";
import { join } from "node:path";
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";
import { CallCache, LlmClient, openAiEmbedder } from "@lib/llm/mod.ts";
import { combMnz, combSum } from "@lib/retrieval/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";
import { startOpenAiServer } from "../../tests/support/openai_server.ts";
import { retrieveRun } from "./retrieve_run.ts";

/** Two topics (requests "storm harbour", "apple frost"), six passages, one kept qrel each. */
async function handWorkspace(): Promise<Workspace & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "crux-retrieve-" });
  const ws = await openWorkspace(dir);
  await ws.upsert("topics", [
    { topicId: "t1", request: "storm harbour" },
    { topicId: "t2", request: "apple frost" },
  ]);
  const p = (passageId: string, text: string) => ({
    passageId,
    topicId: passageId.slice(0, 2),
    docId: passageId.split("#")[0],
    text,
  });
  await ws.upsert("passages", [
    p("t1:0#0", "storm floods the harbour coast"),
    p("t1:0#1", "storm damage"),
    p("t1:1#2", "mayor wins the vote"),
    p("t1:1#3", "storm damage"),
    p("t2:0#0", "apple frost in the valley"),
    p("t2:0#1", "frost hits apple growers"),
  ]);
  await ws.upsert("qrels", [
    { name: "crux_pr", topicId: "t1", subtopic: "0", docId: "t1:0#0", grade: 3 },
    { name: "crux_pr", topicId: "t2", subtopic: "0", docId: "t2:0#0", grade: 3 },
  ]);
  return Object.assign(ws, {
    [Symbol.asyncDispose]: async () => {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    },
  });
}

const ranked = (rows: RunRow[], topic: string) =>
  rows.filter((r) => r.topicId === topic).map((r) => [r.docId, r.rank]);

Deno.test({
  name: "retrieveRun: BM25 (no kind) and dense TF-IDF rank each topic's matching passages first",
  sanitizeResources: false,
  fn: async () => {
    await using ws = await handWorkspace();
    const bm25 = await retrieveRun(ws, { name: "bm25", k: 2 });
    assert.deepEqual(bm25.map((r) => r.run), ["bm25", "bm25", "bm25", "bm25"]);
    // "storm harbour": only t1:0#0 has both terms.
    assert.equal(ranked(bm25, "t1")[0][0], "t1:0#0");
    const dense = await retrieveRun(ws, {
      name: "dense-tfidf",
      kind: "dense",
      embedder: "tfidf",
      k: 3,
    });
    // t1: both terms, then the two identical "storm damage" passages (tied: docid descending).
    assert.deepEqual(ranked(dense, "t1"), [["t1:0#0", 1], ["t1:1#3", 2], ["t1:0#1", 3]]);
    const t1 = dense.filter((r) => r.topicId === "t1");
    assert.equal(t1[1].score, t1[2].score);
    // t2: both passages hold both terms; the shorter one ("apple frost valley") is closer.
    assert.deepEqual(ranked(dense, "t2").slice(0, 2), [["t2:0#0", 1], ["t2:0#1", 2]]);
  },
});

Deno.test({
  name: "retrieveRun: fusion of stored runs (RRF ranks by 1/(k + rank); CombSUM/CombMNZ delegate)",
  sanitizeResources: false,
  fn: async () => {
    await using ws = await handWorkspace();
    const row = (run: string, docId: string, rank: number, score: number) => ({
      run,
      topicId: "t1",
      docId,
      rank,
      score,
    });
    const a = [row("a", "p1", 1, 1), row("a", "p2", 2, 0.5), row("a", "p3", 3, 0)];
    const b = [row("b", "p2", 1, 1), row("b", "p3", 2, 0)];
    await ws.insert("runs", [...a, ...b]);
    const fused = await retrieveRun(ws, {
      name: "hybrid",
      kind: "fusion",
      runs: ["a", "b"],
      method: "rrf",
      k: 60,
    });
    // p2: 1/62 + 1/61; p1: 1/61; p3: 1/63 + 1/62.
    assert.deepEqual(fused.map((r) => [r.run, r.docId, r.rank]), [
      ["hybrid", "p2", 1],
      ["hybrid", "p3", 2],
      ["hybrid", "p1", 3],
    ]);
    assert.ok(Math.abs(fused[0].score - (1 / 62 + 1 / 61)) < 1e-12);
    assert.ok(Math.abs(fused[1].score - (1 / 63 + 1 / 62)) < 1e-12);
    assert.ok(Math.abs(fused[2].score - 1 / 61) < 1e-12);
    // Min-max normalised: a = (1, 0.5, 0), b = (p2 1, p3 0). Sum: p2 1.5, p1 1, p3 0; MNZ x hits.
    const sum = await retrieveRun(ws, {
      name: "cs",
      kind: "fusion",
      runs: ["a", "b"],
      method: "combsum",
    });
    assert.deepEqual(sum.map((r) => [r.docId, r.score]), [["p2", 1.5], ["p1", 1], ["p3", 0]]);
    assert.deepEqual(sum, combSum([a, b], { run: "cs" }));
    const mnz = await retrieveRun(ws, {
      name: "cm",
      kind: "fusion",
      runs: ["a", "b"],
      method: "combmnz",
    });
    assert.deepEqual(mnz.map((r) => [r.docId, r.score]), [["p2", 3], ["p1", 1], ["p3", 0]]);
    assert.deepEqual(mnz, combMnz([a, b], { run: "cm" }));
    await assert.rejects(
      () => retrieveRun(ws, { name: "x", kind: "fusion", runs: ["a", "zz"], method: "rrf" }),
      /Cannot fuse run "zz" into "x": the workspace has no run "zz"; list it earlier in "retrieve"/,
    );
  },
});

Deno.test({
  name: "retrieveRun: a TREC run file is imported under the config's name; bad files are named",
  sanitizeResources: false,
  fn: async () => {
    await using ws = await handWorkspace();
    const dir = await Deno.makeTempDir();
    try {
      const path = join(dir, "x.trec");
      await Deno.writeTextFile(path, "t1 Q0 t1:1#2 1 5.5 theirs\nt1 Q0 t1:0#0 2 4 theirs\n");
      const rows = await retrieveRun(ws, { name: "my-run", kind: "file", path });
      assert.deepEqual(rows, [
        { run: "my-run", topicId: "t1", docId: "t1:1#2", rank: 1, score: 5.5 },
        { run: "my-run", topicId: "t1", docId: "t1:0#0", rank: 2, score: 4 },
      ]);
      await assert.rejects(
        () => retrieveRun(ws, { name: "m", kind: "file", path: join(dir, "nope.trec") }),
        /Cannot import run "m": file ".*nope\.trec" does not exist; fix "path"/,
      );
      const other = join(dir, "other.trec");
      await Deno.writeTextFile(other, "q9 Q0 t1:0#0 1 1 r\n");
      await assert.rejects(
        () => retrieveRun(ws, { name: "o", kind: "file", path: other }),
        /Cannot import run "o" from ".*other\.trec": none of its topic ids is in the workspace \(first: "q9"\)/,
      );
      await Deno.writeTextFile(other, "t1 Q0 doc-7 1 1 r\n");
      await assert.rejects(
        () => retrieveRun(ws, { name: "o", kind: "file", path: other }),
        /none of its passage ids is in the workspace \(first: "doc-7"\)/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const VOCAB = ["storm", "harbour", "coast", "damage", "mayor", "vote", "apple", "frost"];

Deno.test({
  name: "retrieveRun: dense openai embeds each distinct text once and nothing on a re-run",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const seen = new Map<string, number>();
    await using server = startOpenAiServer({
      embed: (text) => {
        seen.set(text, (seen.get(text) ?? 0) + 1);
        const words = text.toLowerCase().split(/\W+/);
        return VOCAB.map((v) => words.filter((w) => w === v).length);
      },
    });
    await using ws = await handWorkspace();
    const cfg = { name: "dense-openai", kind: "dense", embedder: "openai", k: 2 } as const;
    const embedder = async () =>
      openAiEmbedder(
        new LlmClient({
          baseUrl: server.url,
          model: "emb-m",
          cache: await CallCache.open(ws.connection),
        }),
      );
    const rows = await retrieveRun(ws, cfg, { embedder: await embedder() });
    // t1 "storm harbour" = (1,1,0..): t1:0#0 cos 2/sqrt(6); the two "storm damage" passages
    // cos 0.5 (tied: docid descending). t2 "apple frost": both passages cos 1 (tied).
    assert.deepEqual(ranked(rows, "t1"), [["t1:0#0", 1], ["t1:1#3", 2]]);
    assert.ok(Math.abs(rows[0].score - 2 / Math.sqrt(6)) < 1e-6);
    assert.ok(Math.abs(rows[1].score - 0.5) < 1e-6);
    assert.deepEqual(ranked(rows, "t2"), [["t2:0#1", 1], ["t2:0#0", 2]]);
    // Five distinct passage texts plus two requests, each sent exactly once.
    assert.equal(seen.size, 7);
    assert.ok([...seen.values()].every((n) => n === 1), JSON.stringify([...seen]));
    assert.equal(server.log.filter((l) => l.path === "/v1/embeddings").length, 2);
    const calls = server.requests;
    // A re-run with a fresh client over the same workspace cache sends nothing.
    assert.deepEqual(await retrieveRun(ws, cfg, { embedder: await embedder() }), rows);
    assert.equal(server.requests, calls);
    await assert.rejects(
      () => retrieveRun(ws, cfg),
      /Cannot compute dense run "dense-openai": embedder "openai" needs a client/,
    );
  },
});
