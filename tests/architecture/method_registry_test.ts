/**
 * The method registry is the one list of evaluation methods: each method lives
 * in its own folder `lib/methods/<key>/` (declaration, config section, stages,
 * analyses), whose files are imported only by the registry and by files of the
 * same folder (and by tests under `tests/`); no library or test file spells
 * out a list of the method keys; and the registry has one entry per method
 * folder and per method section the config loader accepts.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
import { parseExperimentConfigWith } from "@lib/pipeline/mod.ts";
import { COMMANDS } from "@lib/cli/registry.ts";

const root = new URL("../../", import.meta.url).pathname;

function* files(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* files(p);
    else if (p.endsWith(".ts")) yield p;
  }
}

/** Repository-relative imports of a file. */
function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  for (
    const m of text.matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    )
  ) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith("@lib/")) out.push(normalize(`lib/${spec.slice(5)}`));
    else if (spec.startsWith(".")) out.push(normalize(relative(root, join(dirname(file), spec))));
  }
  return out;
}

/** The files directly under `lib/methods`: the registry and what it is built from. */
const TOP_LEVEL = ["method_declaration.ts", "mod.ts", "registry.ts", "registry_test.ts"];

/**
 * Imports of a file of a method folder (`lib/methods/<key>/...`) by anything
 * but the registry, a file of the same folder or a test under `tests/`.
 */
export function methodFolderImportProblems(
  graph: ReadonlyMap<string, readonly string[]>,
): string[] {
  const problems: string[] = [];
  for (const [rel, targets] of graph) {
    if (rel === "lib/methods/registry.ts" || rel.startsWith("tests/")) continue;
    for (const t of targets) {
      const m = /^lib\/methods\/([^/]+)\/./.exec(t);
      if (!m || rel.startsWith(`lib/methods/${m[1]}/`)) continue;
      problems.push(
        `${rel} imports ${t} of the method folder lib/methods/${
          m[1]
        }/; import the registry (@lib/methods/mod.ts)`,
      );
    }
  }
  return problems.sort();
}

/**
 * Differences between the method folders under `lib/methods` (each a folder
 * with a `declaration.ts`) and the registry's keys: a folder per method, a
 * method per folder.
 */
export function folderProblems(
  folders: ReadonlyMap<string, readonly string[]>,
  keys: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const [folder, names] of folders) {
    if (!keys.includes(folder)) {
      problems.push(`folder lib/methods/${folder}/ is no method of the registry`);
    }
    if (!names.includes("declaration.ts")) {
      problems.push(`folder lib/methods/${folder}/ has no declaration.ts`);
    }
  }
  for (const k of keys) {
    if (!folders.has(k)) problems.push(`registry method "${k}" has no folder lib/methods/${k}/`);
  }
  return problems.sort();
}

/**
 * Files whose lists name source folders or benchmarked workloads, not the
 * registry's methods: the architecture tests (their layers and their own
 * fixtures) and the benchmarks (each times named methods' work one by one).
 */
const EXEMPT = ["tests/architecture/", "tests/bench/"];

/**
 * Array literals of string literals that name at least three method keys, in
 * library and test files: lists that would go stale when a method is added
 * (read the registry instead).
 */
export function methodListProblems(
  texts: ReadonlyMap<string, string>,
  keys: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const [rel, text] of texts) {
    if (EXEMPT.some((d) => rel.startsWith(d))) continue;
    for (const m of text.matchAll(/\[([^\[\]]*)\]/g)) {
      const items = m[1].split(",").map((x) => x.trim()).filter(Boolean);
      if (!items.length || !items.every((x) => /^["'`][\w-]+["'`]$/.test(x))) continue;
      const named = items.map((x) => x.slice(1, -1)).filter((x) => keys.includes(x));
      if (new Set(named).size >= 3) {
        const line = text.slice(0, m.index).split("\n").length;
        problems.push(`${rel}:${line}: a list of method keys ${m[0]}; read METHOD_REGISTRY`);
      }
    }
  }
  return problems.sort();
}

/**
 * Differences between the method sections a config loader accepts and the
 * registry's methods with a section: each accepted section needs exactly one
 * registry entry, and each registry entry with a section must be accepted.
 */
export function sectionProblems(
  accepted: readonly string[],
  registry: readonly { key: string; hasSection: boolean }[],
): string[] {
  const problems: string[] = [];
  const sectioned = registry.filter((m) => m.hasSection).map((m) => m.key);
  for (const key of new Set(registry.map((m) => m.key))) {
    const n = registry.filter((m) => m.key === key).length;
    if (n > 1) problems.push(`method "${key}" has ${n} registry entries`);
  }
  for (const s of accepted) {
    if (!sectioned.includes(s)) problems.push(`config section "${s}" has no registry entry`);
  }
  for (const k of sectioned) {
    if (!accepted.includes(k)) {
      problems.push(`registry method "${k}" has no accepted config section`);
    }
  }
  return problems.sort();
}

/** The top-level fields the loader names as known for a method list (from its error on an unknown field). */
function knownFields(methods: Parameters<typeof parseExperimentConfigWith>[1]): string[] {
  try {
    parseExperimentConfigWith('{"name": "x", "no-such-field": 1}', methods, { file: "x.json" });
  } catch (e) {
    const m = /known fields: (.*)$/.exec((e as Error).message);
    if (m) return m[1].split(", ");
  }
  throw new Error("the config loader accepted an unknown field or named no known fields");
}

const sources = [...files(join(root, "lib")), ...files(join(root, "tests"))]
  .filter((f) => !f.includes("/testdata/"));
const texts = new Map(sources.map((f) => [relative(root, f), Deno.readTextFileSync(f)]));

Deno.test("files of a method folder are imported only by the registry and their own folder", () => {
  const graph = new Map([...texts].map(([rel, text]) => [rel, importsOf(join(root, rel), text)]));
  assert.ok(graph.size > 300, `${graph.size} files read`);
  const inFolders = [...graph.values()].flat().filter((t) => /^lib\/methods\/[^/]+\//.test(t));
  assert.ok(inFolders.length > 20, `${inFolders.length} imports of method folder files read`);
  assert.deepEqual(methodFolderImportProblems(graph), []);
});

Deno.test("each registry method has its folder lib/methods/<key>/ with a declaration, and nothing else does", () => {
  const dir = join(root, "lib/methods");
  const folders = new Map<string, string[]>();
  const top: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) {
      folders.set(
        e.name,
        [...Deno.readDirSync(join(dir, e.name))].map((f) => f.name),
      );
    } else top.push(e.name);
  }
  assert.deepEqual(top.sort(), TOP_LEVEL);
  const keys = METHOD_REGISTRY.map((m) => m.key);
  assert.deepEqual([...folders.keys()].sort(), [...keys].sort());
  assert.deepEqual(folderProblems(folders, keys), []);
});

Deno.test("no library or test file spells out a list of the method keys", () => {
  const keys = METHOD_REGISTRY.map((m) => m.key);
  assert.ok(keys.length >= 3, keys.join(", "));
  assert.deepEqual(methodListProblems(texts, keys), []);
});

Deno.test("the registry has one entry per method section the config loader accepts", () => {
  const core = knownFields([]);
  const all = knownFields(METHOD_REGISTRY);
  const accepted = all.filter((f) => !core.includes(f));
  assert.deepEqual(accepted, METHOD_REGISTRY.filter((m) => m.section).map((m) => m.key));
  const registry = METHOD_REGISTRY.map((m) => ({ key: m.key, hasSection: !!m.section }));
  assert.deepEqual(sectionProblems(accepted, registry), []);
  for (const m of METHOD_REGISTRY) if (m.section) assert.equal(m.section.key, m.key);
});

Deno.test("each method's own commands are commands of the crux tool", () => {
  const names = COMMANDS.map((c) => c.name);
  const missing = METHOD_REGISTRY.flatMap((m) =>
    m.commands.filter((c) => !names.includes(c)).map((c) => `${m.key}: ${c}`)
  );
  assert.deepEqual(missing, []);
  assert.deepEqual(METHOD_REGISTRY.find((m) => m.key === "keypoints")?.commands, ["keypoints"]);
});

Deno.test("the registry checks catch a method folder's file imported from outside, a stray folder, a hard-coded key list and a missing entry", () => {
  const graph = new Map([
    ["lib/methods/registry.ts", [
      "lib/methods/nuggets/declaration.ts",
      "lib/methods/keypoints/stages.ts",
      "lib/methods/method_declaration.ts",
    ]],
    ["lib/methods/mod.ts", ["lib/methods/registry.ts", "lib/methods/subq/declaration.ts"]],
    ["lib/methods/nuggets/declaration.ts", [
      "lib/methods/nuggets/stages.ts",
      "lib/methods/method_declaration.ts",
      "lib/pipeline/mod.ts",
    ]],
    ["lib/methods/nuggets/analyses_test.ts", ["lib/methods/nuggets/analyses.ts"]],
    ["lib/methods/subq/analyses.ts", ["lib/methods/nuggets/analyses.ts"]],
    ["lib/methods/subq/analyses_test.ts", ["lib/methods/keypoints/work.ts"]],
    ["lib/cli/commands/nuggets.ts", ["lib/methods/nuggets/stages.ts", "lib/methods/mod.ts"]],
    ["lib/methods/nuggetsx.ts", ["lib/methods/nuggets/section.ts"]],
    ["tests/pipeline/nugget_stages_test.ts", ["lib/methods/nuggets/stages.ts"]],
  ]);
  const hint = "; import the registry (@lib/methods/mod.ts)";
  assert.deepEqual(methodFolderImportProblems(graph), [
    `lib/cli/commands/nuggets.ts imports lib/methods/nuggets/stages.ts of the method folder lib/methods/nuggets/${hint}`,
    `lib/methods/mod.ts imports lib/methods/subq/declaration.ts of the method folder lib/methods/subq/${hint}`,
    `lib/methods/nuggetsx.ts imports lib/methods/nuggets/section.ts of the method folder lib/methods/nuggets/${hint}`,
    `lib/methods/subq/analyses.ts imports lib/methods/nuggets/analyses.ts of the method folder lib/methods/nuggets/${hint}`,
    `lib/methods/subq/analyses_test.ts imports lib/methods/keypoints/work.ts of the method folder lib/methods/keypoints/${hint}`,
  ]);
  assert.deepEqual(
    folderProblems(
      new Map([
        ["crux", ["declaration.ts"]],
        ["nuggets", ["declaration.ts", "stages.ts"]],
        ["keypoints", ["stages.ts", "analyses.ts"]],
        ["shared", ["tables.ts"]],
      ]),
      ["crux", "nuggets", "keypoints", "subq"],
    ),
    [
      "folder lib/methods/keypoints/ has no declaration.ts",
      "folder lib/methods/shared/ has no declaration.ts",
      "folder lib/methods/shared/ is no method of the registry",
      'registry method "subq" has no folder lib/methods/subq/',
    ],
  );
  const keys = ["crux", "nuggets", "keypoints", "subq", "compare"];
  const texts = new Map([
    ["lib/pipeline/a.ts", 'const M = ["crux", "nuggets", "keypoints", "subq"];\n'],
    ["lib/analysis/b.ts", "const x = 1;\nconst L = new Set(['keypoints', 'subq', 'compare']);\n"],
    [
      "lib/analysis/c.ts",
      'const two = ["crux", "nuggets"]; const mixed = ["crux", x, "subq", "compare"];\n',
    ],
    ["lib/methods/registry.ts", 'const K = ["crux", "nuggets", "keypoints"];\n'],
    ["tests/x_test.ts", 'const K = ["crux", "nuggets", "keypoints"];\n'],
    ["tests/bench/y.ts", 'const K = ["crux", "nuggets", "keypoints"];\n'],
    ["tests/architecture/z_test.ts", 'const K = ["crux", "nuggets", "keypoints"];\n'],
  ]);
  assert.deepEqual(methodListProblems(texts, keys), [
    `lib/analysis/b.ts:2: a list of method keys ['keypoints', 'subq', 'compare']; read METHOD_REGISTRY`,
    `lib/methods/registry.ts:1: a list of method keys ["crux", "nuggets", "keypoints"]; read METHOD_REGISTRY`,
    `lib/pipeline/a.ts:1: a list of method keys ["crux", "nuggets", "keypoints", "subq"]; read METHOD_REGISTRY`,
    `tests/x_test.ts:1: a list of method keys ["crux", "nuggets", "keypoints"]; read METHOD_REGISTRY`,
  ]);
  assert.deepEqual(
    sectionProblems(["nuggets", "keypoints", "rerank-grid"], [
      { key: "crux", hasSection: false },
      { key: "nuggets", hasSection: true },
      { key: "keypoints", hasSection: true },
      { key: "subq", hasSection: true },
      { key: "nuggets", hasSection: true },
    ]),
    [
      'config section "rerank-grid" has no registry entry',
      'method "nuggets" has 2 registry entries',
      'registry method "subq" has no accepted config section',
    ],
  );
});
