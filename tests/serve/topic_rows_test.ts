/**
 * Topic pages rendered from every topic's rows read at once (as the server does,
 * once per state of the workspace file) are the pages read topic by topic: the
 * same ratings, grades, rankings (cut to `k`), types and reports, on a hand-made
 * workspace of two topics, two runs and one passage judge.
 */
import assert from "node:assert/strict";
import { explorerResponse, serveWorkspace, topicPage } from "@lib/serve/mod.ts";
import { openWorkspace, readExplorerTopicRows } from "@lib/store/mod.ts";

const TOPICS = ["t1", "t2"];
const RUNS = ["bm25", "dense"];
/** Passage j of topic t (1-12); run "dense" ranks them in reverse. */
const pid = (t: string, j: number) => `${t}:d${j}#${j}`;

async function build(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "topic-rows-" });
  const ws = await openWorkspace(dir);
  try {
    await ws.insert("topics", TOPICS.map((t) => ({ topicId: t, request: `Request of ${t}` })));
    await ws.insert(
      "questions",
      TOPICS.flatMap((t) =>
        [1, 2].map((o) => ({
          topicId: t,
          questionId: `${t}-q${o}`,
          kind: "subquestion",
          ordinal: o,
          text: `Question ${o} of ${t}?`,
          ...(o === 1 ? { type: "core" } : {}),
        }))
      ),
    );
    await ws.insert("subq_questions", [
      { topicId: "t1", source: "crux", ordinal: 2, text: "question 2 of T1", type: "background" },
    ]);
    const js = Array.from({ length: 12 }, (_, i) => i + 1);
    await ws.insert(
      "passages",
      TOPICS.flatMap((t) =>
        js.map((j) => ({ passageId: pid(t, j), topicId: t, docId: `${t}:d${j}`, text: `P${j}` }))
      ),
    );
    await ws.insert(
      "runs",
      TOPICS.flatMap((t) =>
        RUNS.flatMap((run) =>
          js.map((j) => ({
            run,
            topicId: t,
            docId: pid(t, j),
            rank: run === "bm25" ? j : 13 - j,
            score: run === "bm25" ? 20 - j : j,
          }))
        )
      ),
    );
    await ws.insert(
      "qrels",
      TOPICS.flatMap((t) =>
        [1, 5].map((j) => ({
          name: "crux_pr",
          topicId: t,
          subtopic: "0",
          docId: pid(t, j),
          grade: j === 1 ? 3 : 1,
        }))
      ),
    );
    // Passage j rated (j + o) mod 6 for sub-question o, by one judge; t2 rated for d1-d4 only.
    await ws.upsert(
      "ratings",
      TOPICS.flatMap((t) =>
        js.filter((j) => t === "t1" || j <= 4).flatMap((j) =>
          [1, 2].map((o) => ({
            topicId: t,
            itemId: pid(t, j),
            questionId: `${t}-q${o}`,
            rating: (j + o) % 6,
            judge: "j1",
          }))
        )
      ),
    );
    await ws.insert("generations", [
      { run: "rag", topicId: "t1", text: "A report." },
      { run: "direct", topicId: "t1", text: "Another report." },
    ]);
  } finally {
    ws.close();
  }
  return dir;
}

Deno.test({
  name: "topic pages from every topic's rows read at once equal the pages read topic by topic",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await build();
    const ws = await openWorkspace(dir, { readOnly: true });
    try {
      const rows = await readExplorerTopicRows(ws, 10);
      const t1 = rows.get("t1")!, t2 = rows.get("t2")!;
      assert.deepEqual([...rows.keys()], TOPICS);
      assert.equal(t1.request, "Request of t1");
      assert.equal(t1.judge, "j1");
      // d7 of t1: (7 + 1) % 6 = 2, (7 + 2) % 6 = 3; t2 has no rating of d7.
      assert.deepEqual([...t1.ratings.get(pid("t1", 7))!], [["t1-q1", 2], ["t1-q2", 3]]);
      assert.equal(t2.ratings.size, 4);
      assert.deepEqual(t1.grades.sort((a, b) => b.grade - a.grade), [
        { docId: pid("t1", 1), grade: 3 },
        { docId: pid("t1", 5), grade: 1 },
      ]);
      // Top 10 per run by score: bm25 d1..d10, dense d12..d3.
      assert.deepEqual([...t1.rankings.keys()], RUNS);
      assert.deepEqual(
        t1.rankings.get("bm25")!.map((p) => [p.rank, p.docId, p.score, p.text]),
        Array.from({ length: 10 }, (_, i) => [i + 1, pid("t1", i + 1), 19 - i, `P${i + 1}`]),
      );
      assert.deepEqual(
        t1.rankings.get("dense")!.map((p) => p.docId),
        Array.from({ length: 10 }, (_, i) => pid("t1", 12 - i)),
      );
      assert.deepEqual(t1.reports, ["direct", "rag"]);
      assert.deepEqual(t2.reports, []);
      assert.deepEqual(t1.questions.map((q) => q.questionId), ["t1-q1", "t1-q2"]);
      assert.deepEqual(t1.typed.map((t) => t.type), ["background"]);
      for (const k of [3, 10]) {
        const shared = await readExplorerTopicRows(ws, k);
        for (const t of TOPICS) {
          assert.equal(
            await topicPage(ws, t, { k, rows: shared.get(t) }),
            await topicPage(ws, t, { k }),
            `${t} k=${k}`,
          );
        }
      }
    } finally {
      ws.close();
    }
    // Through the server (rows read once with 100 passages per run, cut to k):
    // the page a request without shared rows gets, nonce aside.
    const server = await serveWorkspace(dir, { port: 0 });
    const plain = (html: string) => html.replace(/nonce="[^"]+"/g, "");
    try {
      for (const path of ["/topic/t1", "/topic/t1?k=3", "/topic/t2?k=100", "/topic/none"]) {
        const served = await fetch(server.url + path);
        const ws2 = await openWorkspace(dir, { readOnly: true });
        const direct = await explorerResponse(ws2, new Request(server.url + path));
        const want = plain(await direct.text());
        ws2.close();
        assert.equal(served.status, direct.status, path);
        assert.equal(plain(await served.text()), want, path);
      }
      const k3 = await (await fetch(`${server.url}/topic/t1?k=3`)).text();
      assert.match(k3, /bm25: top 3/);
      assert.ok(!k3.includes(`>${pid("t1", 4)}<`), "only the top 3 of bm25 shown");
    } finally {
      await server.shutdown();
    }
    await Deno.remove(dir, { recursive: true });
  },
});
