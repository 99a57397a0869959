/**
 * Notebooks use the config's workspace: `CRUX_EXPERIMENT` names an experiment
 * only when the config names no workspace. After `crux run` on a config whose
 * workspace lies outside `outputs/`, a notebook-style run (the config read as the
 * notebooks read it, with `CRUX_EXPERIMENT` set, then the experiment run) makes
 * no model call and writes nothing outside that workspace.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "@lib/cli/main.ts";
import { memoryIo } from "@lib/cli/command.ts";
import { runCommand } from "@lib/cli/commands/run.ts";
import { loadExperimentConfig, runCruxExperiment } from "@lib/experiment/mod.ts";
import { startOpenAiServer } from "../support/openai_server.ts";
import { fakeReply } from "../support/fake_model.ts";
import { tinyWorkspaceDir } from "../pipeline/_tiny.ts";

/** Every path under `dir` (relative), sorted. */
async function tree(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const rel = prefix + e.name;
    out.push(rel);
    if (e.isDirectory) out.push(...await tree(join(dir, e.name), `${rel}/`));
  }
  return out.sort();
}

Deno.test("a notebook-style run on a config with its own workspace: no model call, nothing written elsewhere", async () => {
  await using server = startOpenAiServer({ chat: (req) => ({ content: fakeReply(req) }) });
  const root = await Deno.makeTempDir({ prefix: "crux-nb-root-" });
  const workspace = await tinyWorkspaceDir();
  const configDir = await Deno.makeTempDir({ prefix: "crux-nb-config-" });
  const file = join(configDir, "elsewhere.json");
  const body = {
    name: "elsewhere",
    workspace,
    backend: "openai",
    llm: {
      baseUrl: server.url,
      maxRetries: 0,
      roles: { generator: { model: "gen-model" }, judge: { model: "judge-model" } },
    },
    construct: { questions: 4 },
    generate: ["rag", "oracle"],
  };
  await Deno.writeTextFile(file, JSON.stringify(body));
  try {
    const io = memoryIo();
    assert.equal(await main(["run", "--config", file], io, [runCommand]), 0, io.stderr());
    assert.ok(server.requests > 0, "the first run asks the model");

    const before = await tree(workspace);
    server.reset();
    // As notebook 04 reads it: CRUX_EXPERIMENT set, the repository root elsewhere.
    const config = await loadExperimentConfig(file, {
      defaultExperiment: "from-environment",
      root,
    });
    assert.equal(config.workspace, workspace, "the config's workspace, not outputs/<experiment>");
    assert.equal(config.name, "elsewhere");
    const messages: string[] = [];
    await runCruxExperiment(config, { onEvent: (e) => messages.push(e.message) });
    assert.equal(server.requests, 0, `no model call:\n${messages.join("\n")}`);
    assert.deepEqual(await tree(root), [], "nothing under the notebooks' outputs/");
    assert.deepEqual(await tree(configDir), ["elsewhere.json"]);
    // The workspace gains no file (its tables are rewritten in place).
    assert.deepEqual((await tree(workspace)).filter((p) => !before.includes(p)), []);

    // A config without a workspace: CRUX_EXPERIMENT names the experiment and its folder.
    const bare = join(configDir, "bare.json");
    await Deno.writeTextFile(bare, JSON.stringify({ ...body, workspace: undefined }));
    const named = await loadExperimentConfig(bare, { defaultExperiment: "from-environment", root });
    assert.equal(named.name, "from-environment");
    assert.equal(named.workspace, join(root, "outputs", "from-environment"));
    const own = await loadExperimentConfig(bare, { root });
    assert.equal(own.workspace, join(root, "outputs", "elsewhere"));
  } finally {
    for (const d of [root, workspace, configDir]) await Deno.remove(d, { recursive: true });
  }
});

Deno.test("every notebook reads CRUX_EXPERIMENT as a default, never over the config's workspace", async () => {
  const dir = new URL("../../notebooks/", import.meta.url);
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".ipynb")) continue;
    const nb = JSON.parse(await Deno.readTextFile(new URL(e.name, dir)));
    const code = nb.cells.filter((c: { cell_type: string }) => c.cell_type === "code")
      .map((c: { source: string[] }) => c.source.join("")).join("\n");
    if (!code.includes("CRUX_EXPERIMENT")) continue;
    n++;
    assert.match(
      code,
      /loadExperimentConfig\(configFile, \{\s*defaultExperiment: experiment,/,
      e.name,
    );
    assert.doesNotMatch(code, /\{ experiment[,}]/, e.name);
    assert.doesNotMatch(code, /paths\.outDir/, `${e.name} writes under the config's workspace`);
  }
  assert.equal(n, 10);
});
