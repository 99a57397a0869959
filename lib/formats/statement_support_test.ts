import assert from "node:assert/strict";
import { formatStatementSupport, parseStatementSupport } from "./statement_support.ts";

Deno.test("statement support files round-trip; a bad supported value names file, line and field", () => {
  const records = [{
    qid: "q",
    runId: "r",
    statements: [
      { text: "A.", label: "yes" as const, supported: true },
      { text: "B.", label: null, supported: false },
    ],
  }];
  assert.deepEqual(
    parseStatementSupport(formatStatementSupport(records), { file: "s.jsonl" }),
    [{ ...records[0], line: 1 }],
  );
  const bad = '{"qid": "q", "run_id": "r", "statements": [{"text": "A.", "supported": "yes"}]}\n';
  assert.throws(
    () => parseStatementSupport(bad, { file: "s.jsonl" }),
    /s\.jsonl:1: statements\[0\]\.supported: expected true or false, found "yes"/,
  );
});
