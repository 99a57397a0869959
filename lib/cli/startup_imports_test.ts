import assert from "node:assert/strict";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** Specifiers a module loads before its code runs: static imports, followed transitively. */
async function staticGraph(path: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", path],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
    redirects: Record<string, string>;
  };
  const byUrl = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length) {
    let url = stack.pop()!;
    url = info.redirects[url] ?? url;
    if (seen.has(url)) continue;
    seen.add(url);
    for (const dep of byUrl.get(url)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) stack.push(dep.code.specifier);
    }
  }
  return seen;
}

const HEAVY = /duckdb|vega|arquero|resvg|openai|lenml|playwright|dejavu/;

Deno.test("the crux entry point loads no command module before one is chosen", async () => {
  const graph = [...await staticGraph("lib/cli/main.ts")];
  assert.ok(graph.some((u) => u.endsWith("/lib/cli/registry.ts")));
  assert.deepEqual(graph.filter((u) => u.includes("/lib/cli/commands/")), []);
  assert.deepEqual(graph.filter((u) => HEAVY.test(u)), []);
});

Deno.test("crux eval with file inputs loads neither DuckDB, figures, LLM clients nor the tokenizer", async () => {
  const graph = [...await staticGraph("lib/cli/commands/eval.ts")];
  // The walk reaches the evaluator itself...
  assert.ok(graph.some((u) => u.endsWith("/lib/metrics/run_evaluator.ts")), graph.join("\n"));
  // ...and none of the heavy packages, which other commands import.
  assert.deepEqual(graph.filter((u) => HEAVY.test(u)), []);
  assert.deepEqual(graph.filter((u) => u.includes("/lib/store/")), []);
});

Deno.test("crux index and crux search load neither the tokenizer nor DuckDB", async () => {
  for (const [command, core] of [["index", "_stream_build.ts"], ["search", "_max_score.ts"]]) {
    const graph = [...await staticGraph(`lib/cli/commands/${command}.ts`)];
    assert.ok(graph.some((u) => u.endsWith(`/lib/retrieval/${core}`)), command);
    assert.deepEqual(graph.filter((u) => HEAVY.test(u)), [], command);
  }
});

Deno.test("the static walk does see heavy packages where a command imports them", async () => {
  const graph = [...await staticGraph("lib/cli/commands/report.ts")];
  assert.ok(
    graph.some((u) => HEAVY.test(u)),
    "crux report is expected to load figure or store packages",
  );
});
