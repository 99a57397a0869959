import assert from "node:assert/strict";
import { parseExtraction } from "./parse_extraction.ts";
import { parseMerge } from "./parse_merge.ts";
import { parseEntailment } from "./parse_entailment.ts";
import { lexicalEntailer } from "./lexical_entailer.ts";

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

Deno.test("parseEntailment: Long2RAG's [yes] spelling; contradicts only as the separate label when asked", () => {
  const v = (label: string) => `{"label": "${label}", "reason": "r", "snippet": ""}`;
  const label = (t: string, contradiction = false) => {
    const r = parseEntailment(t, { contradiction });
    return r.ok ? r.value.label : null;
  };
  assert.equal(label(v("[yes]")), "yes");
  assert.equal(label(v("[No]")), "no");
  assert.equal(label(v("Neutral.")), "neutral");
  assert.equal(label(v("contradicts")), null);
  assert.equal(label(v("contradicts"), true), "contradicts");
  assert.equal(label(v("Contradiction"), true), "contradicts");
  assert.equal(label(v("maybe"), true), null);
});

Deno.test("lexicalEntailer: a negated match is Long2RAG's no by default, contradicts when asked", async () => {
  const pair = {
    id: "1",
    keypoint: "The bridge opened in 1932.",
    response: "The bridge never opened in 1932.",
  };
  const [plain] = await lexicalEntailer().judge([pair]);
  const [contra] = await lexicalEntailer({ contradiction: true }).judge([pair]);
  assert.deepEqual([plain.label, contra.label], ["no", "contradicts"]);
});

Deno.test("parseExtraction and parseMerge read Long2RAG's numbered points and flag unknown keys", () => {
  assert.deepEqual(
    parseExtraction(
      'Key points:\nPoint 1: The dam opened in 1936.\nSpans: "opened in 1936"\nPoint 2: It holds 35 km3. (Span: "35 cubic kilometres")',
    ),
    {
      ok: true,
      value: [
        { text: "The dam opened in 1936.", spans: ["opened in 1936"] },
        { text: "It holds 35 km3.", spans: ["35 cubic kilometres"] },
      ],
    },
  );
  // A misspelt key would drop the spans: the answer is unparsed with the reason.
  const span = parseExtraction('[{"point": "The dam opened in 1936.", "span": ["opened"]}]');
  assert.ok(!span.ok && /unknown key\(s\) "span"/.test(span.reason), JSON.stringify(span));
  // Merge lines name the points they merge; every input point once.
  assert.deepEqual(parseMerge("Point 1: Opened in 1936 [2, 3]\nPoint 2: Holds 35 km3 [1]", 3), {
    ok: true,
    value: [{ text: "Opened in 1936", sources: [1, 2] }, { text: "Holds 35 km3", sources: [0] }],
  });
  assert.equal(parseMerge("Point 1: Opened in 1936 [1, 2]\nPoint 2: Holds 35 km3", 3).ok, false);
  const source = parseMerge('[{"point": "A", "source": [1]}]', 1);
  assert.ok(!source.ok && /unknown key\(s\) "source"/.test(source.reason));
  // Reasoning is not read.
  assert.deepEqual(parseMerge("<think>Point 1: A [1]</think>\nPoint 1: B [1]", 1), {
    ok: true,
    value: [{ text: "B", sources: [0] }],
  });
});
