import assert from "node:assert/strict";
import type { DatasetStatsRow } from "@lib/construct/mod.ts";
import { datasetTable } from "./dataset_table.ts";

const row = (dataset: string, documentsPerTopic: number, passagesPerTopic: number) =>
  ({
    dataset,
    topics: 2,
    documentsPerTopic,
    passagesPerTopic,
    tokensPerPassage: 100,
    subquestionsPerTopic: 4,
    answerablePerTopic: 3,
    requiredPerTopic: 2,
    requiredTokensPerTopic: 200,
  }) as DatasetStatsRow;

Deno.test("datasetTable: a dataset whose passages came without documents has a blank Docs cell and a note", () => {
  const t = datasetTable([row("with-docs", 1.5, 12), row("passages-only", 0, 30)]);
  assert.equal(t.rows[0].values.documentsPerTopic, 1.5);
  assert.equal(t.rows[1].values.documentsPerTopic, null, "blank, not 0.0");
  assert.equal(t.rows[1].values.passagesPerTopic, 30);
  assert.ok(
    t.notes!.includes(
      "Docs: no documents in the workspace for passages-only (passages imported without them).",
    ),
    t.notes!.join("\n"),
  );
  // No passages either: nothing was imported, and 0 documents is what was counted.
  assert.equal(datasetTable([row("empty", 0, 0)]).rows[0].values.documentsPerTopic, 0);
});
