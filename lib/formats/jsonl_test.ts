import assert from "node:assert/strict";
import { join } from "node:path";
import { inputError } from "./_testing.ts";
import { formatJsonl, parseJsonl, readJsonl, writeJsonl } from "./jsonl.ts";
import { parseHumanStudy } from "./human_study.ts";

Deno.test("JSONL round-trips through an atomic write, streaming async input", async () => {
  const dir = await Deno.makeTempDir();
  async function* records() {
    for (let i = 0; i < 3; i++) yield { i, s: `x${i}` };
  }
  await writeJsonl(join(dir, "a.jsonl"), records());
  assert.deepEqual(await readJsonl(join(dir, "a.jsonl")), [{ i: 0, s: "x0" }, { i: 1, s: "x1" }, {
    i: 2,
    s: "x2",
  }]);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["a.jsonl"]); // no temp file left
  assert.equal(formatJsonl([{ a: 1 }]), '{"a":1}\n');
  assert.match(
    inputError(() => parseJsonl('{"a": 1}\n"x"\n', { file: "f" })).message,
    /^f:2: expected a JSON object, found "x"$/,
  );
});

Deno.test("human-study records default list fields and require qid and topic", () => {
  assert.deepEqual(
    parseHumanStudy(
      '{"qid": 3, "topic": "Report.", "questions": ["a?"], "type": "duc", "docids": ["d1"], "report": "R", "response": "S"}',
      {
        file: "h",
      },
    ),
    [{
      qid: "3",
      topic: "Report.",
      questions: ["a?"],
      type: "duc",
      docids: ["d1"],
      report: "R",
      response: "S",
      naQuestions: [],
    }],
  );
  assert.equal(
    inputError(() => parseHumanStudy('{"topic": "x"}', { file: "h" })).message,
    "h:1: qid: missing; add this field",
  );
});
