import assert from "node:assert/strict";
import { parseExtraction } from "./parse_extraction.ts";
import { parseMerge } from "./parse_merge.ts";
import { parseEntailment } from "./parse_entailment.ts";

Deno.test("parseExtraction: points with spans; malformed items fail with the raw text", () => {
  assert.deepEqual(parseExtraction("[]"), { ok: true, value: [] });
  assert.deepEqual(parseExtraction('x [{"point": " P ", "spans": []}] y'), {
    ok: true,
    value: [{ text: "P", spans: [] }],
  });
  const bad = parseExtraction('[{"point": "P", "spans": "one"}]');
  assert.deepEqual(bad, {
    ok: false,
    raw: '[{"point": "P", "spans": "one"}]',
    reason: 'item 1: "spans" must be a list of strings',
  });
  assert.equal(parseExtraction("no json").ok, false);
});

Deno.test("parseMerge: the map must cover 1..n exactly once", () => {
  assert.deepEqual(parseMerge('[{"point": "A", "sources": ["2", 1]}]', 2), {
    ok: true,
    value: [{ text: "A", sources: [1, 0] }],
  });
  const reason = (t: string, n: number) => {
    const r = parseMerge(t, n);
    return r.ok ? "" : r.reason;
  };
  assert.equal(
    reason('[{"point": "A", "sources": [1, 1]}]', 1),
    "input point 1 is in more than one merged point",
  );
  assert.equal(reason('[{"point": "A", "sources": [3]}]', 2), "item 1: no input point 3");
  assert.equal(reason('[{"point": "A", "sources": []}]', 1), 'item 1 has no "sources" list');
  assert.equal(
    reason('[{"point": "A", "sources": [1]}]', 3),
    "input points 2, 3 are in no merged point",
  );
});

Deno.test("parseEntailment: yes / no / neutral only", () => {
  assert.deepEqual(parseEntailment('{"label": " Neutral ", "reason": 3}'), {
    ok: true,
    value: { label: "neutral", reason: "", snippet: "" },
  });
  assert.equal(parseEntailment('{"label": "partially"}').ok, false);
  assert.equal(parseEntailment("mostly supported").ok, false);
  assert.deepEqual(parseEntailment("[Yes]"), {
    ok: true,
    value: { label: "yes", reason: "", snippet: "" },
  });
});
