import assert from "node:assert/strict";
import { parseNuggetList, parseWindowLabels } from "./_parse_window.ts";

const L = ["support", "partial_support", "not_support"] as const;
const N = ["ice", "dust", "gas"];

Deno.test("window labels: plain list, case and spacing forgiven, exact count required", () => {
  assert.deepEqual(
    parseWindowLabels('```json\n["Support", "partial support", "not-support"]\n```', L, N),
    {
      ok: true,
      value: ["support", "partial_support", "not_support"],
    },
  );
  assert.deepEqual(parseWindowLabels('["support", "support"]', L, N), {
    ok: false,
    raw: '["support", "support"]',
    reason: "expected 3 labels, found 2",
  });
  const unknown = parseWindowLabels('["support", "maybe", "support"]', L, N);
  assert.equal(unknown.ok, false);
  assert.match((unknown as { reason: string }).reason, /unknown label "maybe"/);
  assert.equal(parseWindowLabels("I think all are supported.", L, N).ok, false);
});

Deno.test("window labels: outputs naming their nuggets are aligned, never shifted", () => {
  const named = JSON.stringify([
    { nugget: "gas", label: "not_support" },
    { text: "ICE", assignment: "support" },
    ["dust", "partial_support"],
  ]);
  assert.deepEqual(parseWindowLabels(named, L, N), {
    ok: true,
    value: ["support", "partial_support", "not_support"],
  });
  assert.deepEqual(
    parseWindowLabels('{"3": "support", "1": "not_support", "2": "support"}', L, N),
    {
      ok: true,
      value: ["not_support", "support", "support"],
    },
  );
  // A nugget named twice (JSON objects list number keys first: "1" is ice, then "ice" again),
  // one missing, or an unknown nugget: failure, re-asked by the caller.
  const twice = parseWindowLabels('{"ice": "support", "1": "support", "gas": "support"}', L, N);
  assert.match(
    (twice as { reason: string }).reason,
    /cannot align \["ice","support"\] with exactly one nugget/,
  );
  const missing = parseWindowLabels('{"ice": "support", "gas": "support"}', L, N);
  assert.match((missing as { reason: string }).reason, /no label for nugget 2 of 3/);
  assert.equal(
    parseWindowLabels('{"rock": "support", "ice": "support", "gas": "support"}', L, N).ok,
    false,
  );
});

Deno.test("nugget list: strings or {text}, trimmed, deduplicated, cut to the limit", () => {
  assert.deepEqual(parseNuggetList('["a  b", {"text": "c"}, "A B", " ", "d"]', 2), {
    ok: true,
    value: ["a b", "c"],
  });
  assert.equal(parseNuggetList('["a", 3]', 5).ok, false);
  assert.equal(parseNuggetList("no list here", 5).ok, false);
});

Deno.test("nugget list: a [] or [2] cited in prose never replaces the list; Python lists are read", () => {
  const prose = "The initial list was [] and passage [2] adds two facts:\n";
  assert.deepEqual(parseNuggetList(prose + '["Ice melts.", "Gas rises."]', 30), {
    ok: true,
    value: ["Ice melts.", "Gas rises."],
  });
  assert.deepEqual(parseNuggetList("['Ice melts.', 'It\\'s cold.',]", 30), {
    ok: true,
    value: ["Ice melts.", "It's cold."],
  });
  // Cut by the token limit: nothing is read, not even the complete first nugget.
  assert.equal(parseNuggetList('["Ice melts.", "Gas ri', 30).ok, false);
});

Deno.test("window labels: the papers' spellings", () => {
  assert.deepEqual(parseWindowLabels('["Support", "No Support", "partial support"]', L, N), {
    ok: true,
    value: ["support", "not_support", "partial_support"],
  });
  assert.deepEqual(
    parseWindowLabels(
      'See nugget [1].\n```python\n["**support**", "not-support", "support"]\n```',
      L,
      N,
    ),
    { ok: true, value: ["support", "not_support", "support"] },
  );
});

Deno.test("window labels: labels stated one per line align by number or go in order", () => {
  // Numbered lines align with the nugget of their number, whatever their order.
  assert.deepEqual(
    parseWindowLabels(
      "Assessment:\n3. not_support - gas is never mentioned\n1. Support\n2. partial support",
      L,
      N,
    ),
    { ok: true, value: ["support", "partial_support", "not_support"] },
  );
  assert.deepEqual(parseWindowLabels("- support\n- support\n- No Support", L, N), {
    ok: true,
    value: ["support", "support", "not_support"],
  });
  // A number left out, a number beyond the window, or too few unnumbered labels: unparsed.
  const missing = parseWindowLabels("1. support\n3. support", L, N);
  assert.match((missing as { reason: string }).reason, /no label for nugget 2 of 3/);
  const beyond = parseWindowLabels("1. support\n2. support\n3. support\n4. support", L, N);
  assert.match((beyond as { reason: string }).reason, /cannot align \[4,"support"\]/);
  assert.deepEqual(parseWindowLabels("support\nsupport", L, N), {
    ok: false,
    raw: "support\nsupport",
    reason: "expected 3 labels, found 2",
  });
  // A line that states no label leaves the whole answer unread, never shifted.
  assert.equal(parseWindowLabels("1. support\n2. unclear\n3. support", L, N).ok, false);
});

Deno.test("nugget list: a list written one nugget per numbered line is read; unclear lists are not", () => {
  assert.deepEqual(
    parseNuggetList("Updated nuggets:\n1. Ice melts\n2. **Dust rises**\n3. ice melts\n", 30),
    { ok: true, value: ["Ice melts", "Dust rises"] },
  );
  assert.deepEqual(parseNuggetList("- a\n- b\n- c", 2), { ok: true, value: ["a", "b"] });
  const unclear = parseNuggetList("1. Ice melts\nin spring\n2. Dust rises", 30);
  assert.equal(unclear.ok, false);
  assert.equal((unclear as { raw: string }).raw, "1. Ice melts\nin spring\n2. Dust rises");
});
