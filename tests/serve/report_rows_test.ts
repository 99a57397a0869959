/**
 * Report and compare pages rendered from every page's rows read at once (as the
 * server does, once per state of the workspace file) are the pages read one
 * request at a time: the same report, ratings (the human summary rated as the
 * reference), coverage verdicts and spans, types, nugget and key point verdicts
 * and measured values, on a hand-made workspace of two topics and three runs.
 */
import assert from "node:assert/strict";
import { comparePage, explorerResponse, reportPage, serveWorkspace } from "@lib/serve/mod.ts";
import { openWorkspace, readExplorerCompareRows, readExplorerReportRows } from "@lib/store/mod.ts";

const TEXTS: Record<string, string> = {
  "rag/t1": "Alpha beta came first. Gamma delta came later.",
  "direct/t1": "Gamma only.",
  "oracle-result/t1": "The human summary.",
  "rag/t2": "Epsilon <b>.",
};

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function build(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "report-rows-" });
  const ws = await openWorkspace(dir);
  try {
    await ws.insert("topics", ["t1", "t2"].map((t) => ({ topicId: t, request: `Request ${t}` })));
    await ws.insert("questions", [
      { topicId: "t1", questionId: "t1-q1", kind: "subquestion", ordinal: 1, text: "Who?" },
      { topicId: "t1", questionId: "t1-q2", kind: "subquestion", ordinal: 2, text: "When?" },
      { topicId: "t2", questionId: "t2-q1", kind: "subquestion", ordinal: 1, text: "What?" },
    ]);
    await ws.insert("subq_questions", [
      { topicId: "t1", source: "crux", ordinal: 1, text: "who?", type: "core" },
      { topicId: "t1", source: "crux", ordinal: 2, text: "When?", type: "background" },
    ]);
    await ws.insert(
      "generations",
      Object.entries(TEXTS).map(([key, text]) => {
        const [run, topicId] = key.split("/");
        return { run, topicId, text, condition: run === "direct" ? "direct" : "rag" };
      }),
    );
    const rag = await sha256(TEXTS["rag/t1"]), direct = await sha256(TEXTS["direct/t1"]);
    await ws.insert("subq_coverage", [
      { textKey: rag, subQuestion: "When?", judge: "c1", answered: true, span: "Gamma delta" },
      { textKey: rag, subQuestion: "Who?", judge: "c1", answered: true, span: "Alpha beta" },
      { textKey: rag, subQuestion: "Who?", judge: "c0", answered: false },
      { textKey: direct, subQuestion: "When?", judge: "c1", status: "unparsed" },
      { textKey: await sha256("not a report"), subQuestion: "Who?", judge: "c1", answered: true },
    ]);
    // Report ratings of rag on t1 by two judges; the reference (the human summary) by
    // j1; one passage rating, which no report page shows.
    await ws.upsert("ratings", [
      { topicId: "t1", itemId: "t1:report:rag", questionId: "t1-q1", rating: 4, judge: "j1" },
      { topicId: "t1", itemId: "t1:report:rag", questionId: "t1-q2", rating: 2, judge: "j1" },
      { topicId: "t1", itemId: "t1:report:rag", questionId: "t1-q1", rating: 5, judge: "j2" },
      { topicId: "t1", itemId: "t1:report", questionId: "t1-q1", rating: 3, judge: "j1" },
      { topicId: "t1", itemId: "t1:report", questionId: "t1-q2", rating: 1, judge: "j1" },
      { topicId: "t1", itemId: "t1:d1#1", questionId: "t1-q1", rating: 0, judge: "j1" },
    ]);
    await ws.insert("nuggets", [
      { topicId: "t1", origin: "o", ordinal: 1, text: "Alpha is beta", importance: "vital" },
      { topicId: "t1", origin: "o", ordinal: 2, text: "Gamma" },
    ]);
    await ws.insert("nugget_assignments", [
      { run: "rag", topicId: "t1", origin: "o", ordinal: 1, judge: "n1", label: "support" },
      { run: "rag", topicId: "t1", origin: "o", ordinal: 2, judge: "n1" },
      { run: "direct", topicId: "t1", origin: "o", ordinal: 1, judge: "n1", label: "not" },
    ]);
    await ws.insert("keypoints", [
      { topicId: "t1", keypointId: "k1", level: "merged", text: "Beta follows alpha", source: "s" },
    ]);
    await ws.insert("keypoint_labels", [
      { run: "rag", topicId: "t1", keypointId: "k1", label: "yes", judge: "kj", source: "s" },
    ]);
    const measure = (run: string, topicId: string, value: number) => ({
      run,
      topicId,
      measure: "Cov@10",
      name: "Cov",
      cutoff: "10",
      method: "crux",
      judge: "j1",
      source: "",
      value,
    });
    await ws.insert("measures", [
      measure("rag", "t1", 0.5),
      measure("direct", "t1", 0.25),
      measure("rag", "t2", 0.75),
      measure("rag", "all", 0.625),
    ]);
  } finally {
    ws.close();
  }
  return dir;
}

Deno.test({
  name: "report and compare pages from every page's rows read at once equal the pages read alone",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await build();
    const ws = await openWorkspace(dir, { readOnly: true });
    try {
      const reports = await readExplorerReportRows(ws);
      assert.deepEqual([...reports.keys()], ["t1", "t2"]);
      assert.deepEqual([...reports.get("t1")!.keys()], ["direct", "oracle-result", "rag"]);
      const rag = reports.get("t1")!.get("rag")!;
      assert.equal(rag.report.text, TEXTS["rag/t1"]);
      assert.deepEqual(rag.questions.map((q) => q.questionId), ["t1-q1", "t1-q2"]);
      assert.deepEqual(rag.types.map((t) => [t.text, t.type]), [
        ["who?", "core"],
        ["When?", "background"],
      ]);
      // By judge, then sub-question; the coverage of other texts left out.
      assert.deepEqual(rag.coverage.map((c) => [c.judge, c.subQuestion, c.answered, c.span]), [
        ["c0", "Who?", false, null],
        ["c1", "When?", true, "Gamma delta"],
        ["c1", "Who?", true, "Alpha beta"],
      ]);
      assert.deepEqual(rag.ratings.map((r) => [r.judge, r.questionId, r.rating]), [
        ["j1", "t1-q1", 4],
        ["j1", "t1-q2", 2],
        ["j2", "t1-q1", 5],
      ]);
      // The human summary has no report item: its ratings are the reference's.
      assert.deepEqual(
        reports.get("t1")!.get("oracle-result")!.ratings.map((r) => [r.itemId, r.rating]),
        [["t1:report", 3], ["t1:report", 1]],
      );
      assert.deepEqual(reports.get("t1")!.get("direct")!.ratings, []);
      assert.deepEqual(rag.verdicts, [
        {
          method: "nuggets",
          id: "1",
          text: "Alpha is beta",
          importance: "vital",
          label: "support",
          judge: "n1",
        },
        { method: "nuggets", id: "2", text: "Gamma", label: "unparsed", judge: "n1" },
        { method: "keypoints", id: "k1", text: "Beta follows alpha", label: "yes", judge: "kj" },
      ]);
      assert.deepEqual(reports.get("t1")!.get("direct")!.coverage.map((c) => c.status), [
        "unparsed",
      ]);
      const compares = await readExplorerCompareRows(ws);
      assert.deepEqual([...compares.keys()], ["t1", "t2"]);
      assert.deepEqual(compares.get("t1")!.measures.map((m) => [m.run, m.value]), [
        ["direct", 0.25],
        ["rag", 0.5],
      ]);

      // Every page the same from shared rows as read alone.
      for (const [topic, runs] of reports) {
        for (const [run, rows] of runs) {
          const shared = await reportPage(ws, run, topic, { rows });
          assert.equal(shared, await reportPage(ws, run, topic), `${run} on ${topic}`);
        }
      }
      const page = (await reportPage(ws, "rag", "t1", { rows: rag }))!;
      // Spans numbered in the order of the sub-questions (Who? before When?).
      assert.ok(page.includes(
        `<mark id="span-1" title="Answers: Who?">Alpha beta<sup><a href="#cov-1">1</a></sup></mark>`,
      ));
      assert.ok(page.includes(`<mark id="span-2" title="Answers: When?">Gamma delta<sup>`));
      assert.match(page, /Nugget assignments \(2\)/);
      assert.match(page, /Key point entailment \(1\)/);
      assert.match(page, /Typed sub-question coverage \(3\)/);
      assert.match(page, /<td>Who\?<\/td><td>core<\/td><td>no<\/td>/);
      for (const [topic, rows] of compares) {
        for (const runs of [{}, { a: "rag", b: "direct" }, { a: "oracle-result" }, { b: "x" }]) {
          assert.equal(
            await comparePage(ws, topic, runs, { rows }),
            await comparePage(ws, topic, runs),
            `${topic} ${JSON.stringify(runs)}`,
          );
        }
      }
      const compare = (await comparePage(ws, "t1", { a: "direct", b: "rag" }, {
        rows: compares.get("t1"),
      }))!;
      // rag 0.5 - direct 0.25.
      assert.match(compare, /0\.2500<\/td><td class="num">0\.5000<\/td><td class="num">\+0\.2500/);
    } finally {
      ws.close();
    }
    // Through the server: the page a request without shared rows gets, nonce aside.
    const server = await serveWorkspace(dir, { port: 0 });
    const plain = (html: string) => html.replace(/nonce="[^"]+"/g, "");
    try {
      for (
        const path of [
          "/report/rag/t1",
          "/report/oracle-result/t1",
          "/report/rag/t2",
          "/report/direct/t2",
          "/compare/t1",
          "/compare/t1?a=rag&b=direct",
          "/compare/t2",
          "/compare/t3",
        ]
      ) {
        const served = await fetch(server.url + path);
        const ws2 = await openWorkspace(dir, { readOnly: true });
        const direct = await explorerResponse(ws2, new Request(server.url + path));
        const want = plain(await direct.text());
        ws2.close();
        assert.equal(served.status, direct.status, path);
        assert.equal(plain(await served.text()), want, path);
      }
    } finally {
      await server.shutdown();
    }
    await Deno.remove(dir, { recursive: true });
  },
});
