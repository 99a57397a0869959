import assert from "node:assert/strict";
import { checkStatements, DOCUMENT_SEPARATOR } from "./check_statements.ts";
import type { EntailmentJudge } from "./types.ts";

Deno.test("checkStatements: each sentence against the joined documents; no documents, no check", async () => {
  const seen: string[] = [];
  const judge: EntailmentJudge = {
    name: "scripted",
    judge: (pairs) => {
      seen.push(...pairs.map((p) => p.response));
      return Promise.resolve(pairs.map((p) => ({
        id: p.id,
        label: p.keypoint.startsWith("Yes") ? "yes" as const : "no" as const,
        status: "ok" as const,
        reason: "",
        snippet: "",
      })));
    },
  };
  const r = await checkStatements([
    {
      qid: "q",
      runId: "r",
      text: "Yes, it opened. No, it did not close.",
      documents: ["D1", "D2"],
    },
    { qid: "q", runId: "direct", text: "Yes, unchecked.", documents: [] },
  ], judge);
  assert.deepEqual(r.verdicts.map((v) => [v.runId, v.index, v.text, v.label, v.supported]), [
    ["r", 0, "Yes, it opened.", "yes", true],
    ["r", 1, "No, it did not close.", "no", false],
  ]);
  assert.deepEqual(seen, [`D1${DOCUMENT_SEPARATOR}D2`, `D1${DOCUMENT_SEPARATOR}D2`]);
  assert.equal(DOCUMENT_SEPARATOR, "\n\n=====\n\n");
});
