import assert from "node:assert/strict";
import { parseTemplate } from "./parse_template.ts";

const HEAD =
  "---\nid: t\nversion: 2\nplaceholders: a, b\noutput: text\ntemperature: 0.7\ntop_p: 0.95\n---\n";

Deno.test("parseTemplate reads header, parameters and messages", () => {
  const t = parseTemplate(HEAD + "@@ system\nBe brief.\n@@ user\nA={{a}}\nB={{ b }}\n\n", {
    source: "t.v2.md",
  });
  assert.equal(t.ref, "t@2");
  assert.deepEqual(t.placeholders, ["a", "b"]);
  assert.deepEqual(t.params, { temperature: 0.7, topP: 0.95 });
  assert.deepEqual(t.messages, [
    { role: "system", content: "Be brief." },
    { role: "user", content: "A={{a}}\nB={{ b }}" },
  ]);
});

Deno.test("parseTemplate rejects undeclared, unused and malformed parts with file:line", () => {
  assert.throws(
    () => parseTemplate(HEAD + "@@ user\n{{a}} {{b}} {{c}}\n", { source: "x.md" }),
    {
      name: "SyntaxError",
      message:
        'Cannot read prompt template x.md:9: placeholder "{{c}}" is not declared; add it to "placeholders:"',
    },
  );
  assert.throws(
    () => parseTemplate(HEAD + "@@ user\n{{a}}\n"),
    /placeholder "b" is declared but never used/,
  );
  assert.throws(
    () => parseTemplate(HEAD + "@@ robot\n{{a}}{{b}}\n"),
    /inline:9: unknown role "robot"/,
  );
  assert.throws(
    () => parseTemplate(HEAD + "stray\n@@ user\n{{a}}{{b}}\n"),
    /inline:9: text before the first message/,
  );
  assert.throws(() => parseTemplate("id: t\n"), /expected a header starting with "---"/);
  assert.throws(
    () => parseTemplate("---\nid: t\nversion: 1\noutput: x\n---\n@@ user\nhi\n"),
    /"placeholders" is missing/,
  );
  assert.throws(
    () => parseTemplate("---\nid: t\nversion: one\nplaceholders:\noutput: x\n---\n@@ user\nhi\n"),
    /"version" must be a positive integer, found "one"/,
  );
  assert.throws(
    () => parseTemplate(HEAD.replace("0.7", "hot") + "@@ user\n{{a}}{{b}}\n"),
    /"temperature" must be a number, found "hot"/,
  );
});
