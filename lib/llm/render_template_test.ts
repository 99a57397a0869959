import assert from "node:assert/strict";
import { parseTemplate } from "./parse_template.ts";
import { renderTemplate } from "./render_template.ts";

const t = parseTemplate(
  "---\nid: t\nversion: 1\nplaceholders: q, n\noutput: x\ntemperature: 0\n---\n@@ user\nAsk {{n}} about {{q}}.\n",
);

Deno.test("renderTemplate fills every placeholder once and carries params and ref", () => {
  const req = renderTemplate(t, { q: "{{n}} cats", n: 3 }, { id: "x1", params: { maxTokens: 9 } });
  assert.deepEqual(req, {
    id: "x1",
    messages: [{ role: "user", content: "Ask 3 about {{n}} cats." }],
    params: { temperature: 0, maxTokens: 9 },
    template: "t@1",
  });
  assert.deepEqual(t.messages[0].content, "Ask {{n}} about {{q}}.", "the template is not mutated");
});

Deno.test("renderTemplate rejects missing and unknown values", () => {
  assert.throws(() => renderTemplate(t, { q: "x" }), {
    name: "TypeError",
    message: /no value for "n"/,
  });
  assert.throws(
    () => renderTemplate(t, { q: "x", n: 1, z: 2 }),
    /unknown placeholder "z"; it declares q, n/,
  );
});
