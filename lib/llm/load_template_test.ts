import assert from "node:assert/strict";
import { join } from "node:path";
import { loadTemplate } from "./load_template.ts";

const BUILTIN: Record<string, string[]> = {
  answerability: ["question", "context"],
  decontextualize: ["document"],
  report_request: ["summary"],
  subquestions: ["summary", "n"],
  rag_report: ["request", "context", "budget"],
  direct_report: ["request", "budget"],
  nugget_create: ["query", "nuggets", "count", "passages", "max_nuggets"],
  nugget_importance: ["query", "nuggets"],
  nugget_assign: ["query", "answer", "nuggets"],
  keypoint_extract: ["question", "document", "found"],
  keypoint_merge: ["question", "points"],
  keypoint_response: ["question", "documents"],
  keypoint_entail: ["keypoint", "response"],
  keypoint_entail_contradiction: ["keypoint", "response"],
  keypoint_support: ["statement", "documents"],
  keypoint_support_contradiction: ["statement", "documents"],
  subq_decompose: ["question", "n"],
  subq_type: ["question", "subquestion", "examples"],
  subq_coverage: ["subquestion", "text"],
  relevance: ["query", "passage"],
  rerank_listwise: ["query", "n", "passages"],
  rerank_setwise: ["query", "passages", "labels"],
  rerank_first: ["query", "n", "last", "passages"],
};

Deno.test("every built-in template loads with its declared placeholders", async () => {
  for (const [id, placeholders] of Object.entries(BUILTIN)) {
    const t = await loadTemplate(id);
    assert.match(t.ref, new RegExp(`^${id}@[1-9]\\d*$`));
    assert.deepEqual(t.placeholders, placeholders, id);
  }
  const a = await loadTemplate("answerability");
  assert.deepEqual(a.params, { temperature: 0, topP: 1, maxTokens: 5 });
});

Deno.test("a user folder replaces built-in templates; the highest version wins", async () => {
  const dir = await Deno.makeTempDir();
  const file = (v: number) =>
    `---\nid: answerability\nversion: ${v}\nplaceholders: question, context\noutput: digit\n---\n@@ user\nv${v} {{question}} {{context}}\n`;
  await Deno.writeTextFile(join(dir, "answerability.v3.prompt"), file(3));
  await Deno.writeTextFile(join(dir, "answerability.v4.prompt"), file(4));
  assert.equal((await loadTemplate("answerability", { dir })).ref, "answerability@4");
  assert.equal((await loadTemplate("answerability", { dir, version: 3 })).ref, "answerability@3");
  // A version the folder lacks comes from the built-in prompts.
  const builtin = await loadTemplate("answerability", { dir, version: 2 });
  assert.equal(builtin.ref, "answerability@2");
  assert.ok(!builtin.source.startsWith(dir));
  assert.equal((await loadTemplate("relevance", { dir })).ref, "relevance@1");
  await Deno.writeTextFile(join(dir, "relevance.v4.prompt"), file(4));
  await assert.rejects(
    loadTemplate("relevance", { dir }),
    /header says answerability@4, file name says relevance@4/,
  );
  await assert.rejects(loadTemplate("nope", { dir }), {
    name: "NotFound",
    message: /No prompt template "nope"/,
  });
  await Deno.remove(dir, { recursive: true });
});
