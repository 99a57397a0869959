/**
 * A user's own prompt, one file away: every step takes a file in place of its
 * built-in prompt (config `prompts` section or `--prompt`), checked before any
 * call, its text in the cache key and its reference in every call record.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BUILTIN_PROMPTS,
  LlmClient,
  loadTemplate,
  promptSet,
  renderTemplate,
  resolveRoleConfig,
} from "@lib/llm/mod.ts";
import { main } from "@lib/cli/main.ts";
import { experimentStages, parseExperimentConfigWith } from "@lib/pipeline/mod.ts";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { judgeCommand } from "@lib/cli/commands/judge.ts";
import { type ServerChatRequest, startOpenAiServer } from "../support/openai_server.ts";

/** Newest built-in template of every step. */
async function builtinIds(): Promise<string[]> {
  const ids = new Set<string>();
  for await (const e of Deno.readDir(BUILTIN_PROMPTS)) {
    const m = /^(.+)\.v\d+\.prompt$/.exec(e.name);
    if (m) ids.add(m[1]);
  }
  return [...ids].sort();
}

Deno.test("every step's prompt can come from a user's file: the server receives the file's text", async () => {
  const dir = await Deno.makeTempDir();
  const bodies: ServerChatRequest[] = [];
  await using server = startOpenAiServer({ chat: (req) => (bodies.push(req), { content: "ok" }) });
  try {
    const ids = await builtinIds();
    assert.ok(ids.length >= 25, `${ids.length} steps`);
    const files: Record<string, string> = {};
    for (const id of ids) {
      const builtin = await loadTemplate(id);
      files[id] = join(dir, `${id}.txt`);
      // Plain text: the paper's wording would go here; every placeholder of the step, once.
      await Deno.writeTextFile(
        files[id],
        `Paper prompt of ${id}.\n${builtin.placeholders.map((p) => `${p}: {{${p}}}`).join("\n")}`,
      );
    }
    const source = promptSet(files);
    const client = new LlmClient({ baseUrl: server.url, model: "m" });
    for (const id of ids) {
      const builtin = await loadTemplate(id);
      const own = await loadTemplate(id, { dir: source });
      assert.match(own.ref, new RegExp(`^${id}@${builtin.version}\\+file:[0-9a-f]{12}$`));
      // The built-in prompt's sampling parameters stay (e.g. answerability's 5 tokens).
      assert.deepEqual(own.params, builtin.params, id);
      const values = Object.fromEntries(own.placeholders.map((p) => [p, `<${p} of ${id}>`]));
      const rec = await client.chat(renderTemplate(own, values));
      assert.equal(rec.status, "ok");
      assert.equal(rec.template, own.ref);
      const sent = bodies.at(-1)!.messages.map((m) => m.content).join("\n");
      const expected = `Paper prompt of ${id}.\n` +
        own.placeholders.map((p) => `${p}: <${p} of ${id}>`).join("\n");
      assert.equal(sent, expected, id);
    }
    assert.equal(server.requests, ids.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a prompt file with an unknown or a missing placeholder is refused, naming both", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "rating.txt");
    await Deno.writeTextFile(file, "Rate {{passage}} for {{question}} from 0 to 5.");
    assert.throws(
      () => promptSet({ answerability: file }),
      (e: Error) =>
        e instanceof TypeError && /unknown placeholder\(s\) \{\{passage\}\}/.test(e.message) &&
        /missing placeholder\(s\) \{\{context\}\}/.test(e.message) &&
        /fills exactly \{\{question\}\}, \{\{context\}\}/.test(e.message),
    );
    assert.throws(() => promptSet({ no_such_step: file }), /there is no prompt "no_such_step"/);
    assert.throws(
      () => promptSet({ answerability: join(dir, "absent.txt") }),
      /Cannot read prompt file/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux judge --prompt FILE: the judge sees the user's text; the text is part of the cache key", async () => {
  const dir = await Deno.makeTempDir();
  const bodies: ServerChatRequest[] = [];
  await using server = startOpenAiServer({
    chat: (
      req,
    ) => (bodies.push(req),
      { content: req.messages.at(-1)!.content.startsWith("MY SCALE") ? "4" : "1" }),
  });
  try {
    const pairs = join(dir, "pairs.jsonl");
    await Deno.writeTextFile(pairs, JSON.stringify({ id: "a", question: "Who?", context: "Ann." }));
    const mine = join(dir, "answerability.txt");
    await Deno.writeTextFile(mine, "MY SCALE 0-5.\nQ: {{question}}\nC: {{context}}\nRating:");
    const run = async (...extra: string[]) => {
      const io = memoryIo();
      const code = await main(
        [
          "judge",
          "answerability",
          "--input",
          pairs,
          "--out",
          join(dir, `out${server.requests}.jsonl`),
          "--model",
          "m",
          "--base-url",
          server.url,
          "--workspace",
          join(dir, "ws"),
          ...extra,
        ],
        io,
        [judgeCommand],
      );
      return { code, io };
    };
    const own = await run("--prompt", mine);
    assert.equal(own.code, 0, own.io.stderr());
    assert.equal(server.requests, 1);
    assert.equal(bodies[0].messages.length, 1);
    assert.equal(bodies[0].messages[0].content, "MY SCALE 0-5.\nQ: Who?\nC: Ann.\nRating:");
    assert.equal(bodies[0].max_tokens, 5); // the built-in prompt's budget
    assert.match(await Deno.readTextFile(join(dir, "out0.jsonl")), /"rating":4/);
    // The built-in prompt is another request (not served from the user's cached answer).
    const builtin = await run();
    assert.equal(builtin.code, 0, builtin.io.stderr());
    assert.equal(server.requests, 2);
    assert.match(bodies[1].messages[0].content, /highly relevant, complete and accurate/);
    // The same file again is answered from the cache.
    const again = await run("--prompt", `answerability=${mine}`);
    assert.equal(again.code, 0, again.io.stderr());
    assert.equal(server.requests, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crux judge refuses a prompt file with an unknown placeholder before any call", async () => {
  const dir = await Deno.makeTempDir();
  await using server = startOpenAiServer({ chat: () => ({ content: "3" }) });
  try {
    const pairs = join(dir, "pairs.jsonl");
    await Deno.writeTextFile(pairs, JSON.stringify({ id: "a", question: "Who?", context: "Ann." }));
    const bad = join(dir, "bad.txt");
    await Deno.writeTextFile(bad, "Q: {{question}}\nC: {{context}}\nAlso {{passage}}");
    const io = memoryIo();
    const code = await main(
      [
        "judge",
        "answerability",
        "--input",
        pairs,
        "--out",
        join(dir, "out.jsonl"),
        "--model",
        "m",
        "--base-url",
        server.url,
        "--workspace",
        join(dir, "ws"),
        "--prompt",
        `answerability=${bad}`,
      ],
      io,
      [judgeCommand],
    );
    assert.notEqual(code, 0);
    assert.match(io.stderr(), /unknown placeholder\(s\) \{\{passage\}\}/);
    assert.equal(server.requests, 0);
    // A bare file whose name and header name no step is a usage error.
    const io2 = memoryIo();
    const code2 = await main(
      [
        "judge",
        "answerability",
        "--input",
        pairs,
        "--out",
        join(dir, "out2.jsonl"),
        "--model",
        "m",
        "--base-url",
        server.url,
        "--workspace",
        join(dir, "ws"),
        "--prompt",
        bad,
      ],
      io2,
      [judgeCommand],
    );
    assert.equal(code2, 2);
    assert.match(io2.stderr(), /name the step it replaces, as --prompt NAME=FILE/);
    assert.equal(server.requests, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the config's prompts section names files relative to the config", async () => {
  const dir = await Deno.makeTempDir();
  const bodies: ServerChatRequest[] = [];
  await using server = startOpenAiServer({ chat: (req) => (bodies.push(req), { content: "2" }) });
  try {
    await Deno.mkdir(join(dir, "paper"));
    await Deno.writeTextFile(
      join(dir, "paper", "rate.txt"),
      "CONFIG PROMPT {{question}} / {{context}}",
    );
    const config = join(dir, "experiment.json");
    await Deno.writeTextFile(
      config,
      JSON.stringify({ prompts: { answerability: "paper/rate.txt" } }),
    );
    const pairs = join(dir, "pairs.jsonl");
    await Deno.writeTextFile(pairs, JSON.stringify({ id: "a", question: "Who?", context: "Ann." }));
    const io = memoryIo();
    const code = await main(
      [
        "judge",
        "answerability",
        "--input",
        pairs,
        "--out",
        join(dir, "out.jsonl"),
        "--model",
        "m",
        "--base-url",
        server.url,
        "--workspace",
        join(dir, "ws"),
        "--config",
        config,
      ],
      io,
      [judgeCommand],
    );
    assert.equal(code, 0, io.stderr());
    assert.equal(bodies[0].messages[0].content, "CONFIG PROMPT Who? / Ann.");
    // The role's settings resolve the same files: the flag's file wins over the config's.
    const flag = join(dir, "flag.txt");
    await Deno.writeTextFile(flag, "FLAG {{question}} {{context}}");
    const s = resolveRoleConfig("judge", {
      env: {},
      config: { prompts: { answerability: join(dir, "paper", "rate.txt") } },
      overrides: { model: "m", prompts: { answerability: flag } },
    });
    const t = await loadTemplate("answerability", { dir: s.templatesDir });
    assert.equal(t.messages[0].content, "FLAG {{question}} {{context}}");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an experiment config's prompts section joins llm.prompts, paths against the config's folder", () => {
  const cfg = parseExperimentConfigWith(
    JSON.stringify({
      name: "demo",
      llm: { prompts: { relevance: "/abs/umbrela.txt" } },
      prompts: { answerability: "paper/rate.txt" },
    }),
    [],
    { file: "/repo/configs/demo.json", root: "/repo" },
  );
  assert.deepEqual(cfg.llm?.prompts, {
    relevance: "/abs/umbrela.txt",
    answerability: "/repo/configs/paper/rate.txt",
  });
  assert.throws(
    () =>
      parseExperimentConfigWith(
        JSON.stringify({ name: "demo", prompts: { answerability: 3 } }),
        [],
        { file: "/repo/configs/demo.json", root: "/repo" },
      ),
    /field "prompts.answerability" must be a file name/,
  );
});

Deno.test("an online experiment's stages carry the prompt files: another text, other parameters", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "rate.txt");
    const stages = async (text: string) => {
      await Deno.writeTextFile(file, text);
      const config = parseExperimentConfigWith(
        JSON.stringify({ name: "p", backend: "openai", prompts: { answerability: "rate.txt" } }),
        METHOD_REGISTRY,
        { file: join(dir, "p.json"), root: dir },
      );
      const env = { CRUX_JUDGE_MODEL: "j", CRUX_GENERATOR_MODEL: "g" };
      const specs = await experimentStages(config, { env, methods: METHOD_REGISTRY });
      return specs.find((s) => s.id === "construct")!.params as { models: Record<string, string> };
    };
    const a = await stages("A {{question}} {{context}}");
    const b = await stages("B {{question}} {{context}}");
    const a2 = await stages("A {{question}} {{context}}");
    assert.match(a.models.prompts, /^prompt-set:[0-9a-f]{16}$/);
    assert.notEqual(a.models.prompts, b.models.prompts);
    assert.deepEqual(a, a2);
    assert.equal(a.models.judge, "j");
    // A bad file is refused when the stages are declared, before any call.
    await assert.rejects(
      () => stages("A {{question}}"),
      /missing placeholder\(s\) \{\{context\}\}/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
