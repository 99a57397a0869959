import assert from "node:assert/strict";
import { workspaceJudged } from "@lib/pipeline/mod.ts";
import { measureContexts } from "@lib/methods/mod.ts";
import { judgeReports } from "@lib/judge/mod.ts";
import { loadCruxData } from "@lib/analysis/load_crux_data.ts";
import { humanReportLabels } from "@lib/analysis/human_report_labels.ts";
import { mainTable } from "@lib/analysis/main_table.ts";
import { tinyData } from "@lib/analysis/testdata/tiny_data.ts";
import { tinyWorkspace } from "@lib/analysis/testdata/tiny_workspace.ts";

Deno.test({
  name: "loadCruxData: a workspace round trip gives the fixture's data and the same main table",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws = await tinyWorkspace(dir);
    try {
      // The measure stages store what the tables show (the fixture holds the same rows).
      const sets = ["a", "b", "c", "oracle-context"].map((generation) => ({ generation }));
      await measureContexts(ws, sets, { judge: "human", taus: [3, 5], cutoffs: [] });
      const judge = { name: "lexical", rate: () => Promise.reject(new Error("no rating asked")) };
      await judgeReports(ws, { judge, contextJudge: "human", taus: [5] });
      const data = await loadCruxData(ws);
      const want = tinyData();
      assert.equal(data.passageJudge, "human");
      assert.equal(data.reportJudge, "lexical");
      assert.deepEqual(data.backends, { judge: "lexical", generator: "extractive" });
      assert.deepEqual(data.topics, want.topics);
      assert.deepEqual(data.questions, want.questions);
      assert.deepEqual(data.tokens, want.tokens);
      const byId = (xs: readonly { itemId: string }[]) =>
        [...xs].sort((a, b) => (a.itemId < b.itemId ? -1 : 1));
      assert.deepEqual(byId(data.passageRatings), byId(want.passageRatings));
      assert.deepEqual(data.reportRatings, want.reportRatings);
      assert.deepEqual(mainTable(data).data.taus, mainTable(want).data.taus);
      assert.deepEqual(mainTable(data).table!.rows, mainTable(want).table!.rows);
      // The human's rating of the human summary is a human label, not a report rating.
      assert.deepEqual(await humanReportLabels(ws), [{
        topicId: "t1",
        condition: "oracle-result",
        ratings: [5, 5, 0],
      }]);
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "loadCruxData: judges chosen explicitly, and a judge that rated nothing is refused",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws = await tinyWorkspace(dir);
    try {
      const data = await loadCruxData(ws, {
        reportJudge: "human",
        backends: { embedder: "tfidf" },
      });
      assert.equal(data.reportJudge, "human");
      assert.deepEqual([...data.reportRatings.keys()], ["t1:report"]);
      assert.equal(data.backends.embedder, "tfidf");
      await assert.rejects(
        () => loadCruxData(ws, { passageJudge: "gpt" }),
        /Cannot analyse workspace ".*" with judge "gpt": it rated no passage; choose one of "human"/,
      );
      await assert.rejects(
        () => loadCruxData(ws, { reportJudge: "gpt" }),
        /Cannot use report judge "gpt": it rated no report/,
      );
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "loadCruxData reads the passage judgments the measure stage reads, a passage without text included",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws = await tinyWorkspace(dir);
    try {
      // A rated passage whose text was never imported keeps its ratings in both readings.
      const [q] = await ws.questions({ topicId: "t1", kind: "subquestion" });
      await ws.upsert("ratings", [{
        topicId: "t1",
        itemId: "t1:9#0",
        questionId: q.questionId,
        rating: 4,
        judge: "human",
      }]);
      const data = await loadCruxData(ws);
      const { inputs, judge } = await workspaceJudged(ws, { judge: data.passageJudge });
      assert.equal(judge, "human");
      assert.deepEqual(data.passageRatings, inputs.judgments);
      const added = data.passageRatings.find((r) => r.itemId === "t1:9#0");
      assert.equal(added?.ratings[0], 4);
      assert.ok(added!.ratings.slice(1).every((r) => r === 0), "unrated sub-questions count 0");
      assert.equal(data.tokens.has("t1:9#0"), false);
    } finally {
      ws.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
