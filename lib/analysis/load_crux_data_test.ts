import assert from "node:assert/strict";
import { loadCruxData } from "./load_crux_data.ts";
import { humanReportLabels } from "./human_report_labels.ts";
import { mainTable } from "./main_table.ts";
import { tinyData } from "./testdata/tiny_data.ts";
import { tinyWorkspace } from "./testdata/tiny_workspace.ts";

Deno.test({
  name: "loadCruxData: a workspace round trip gives the fixture's data and the same main table",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const ws = await tinyWorkspace(dir);
    try {
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
