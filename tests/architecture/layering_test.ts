/**
 * The library's layers, checked on every import under `lib/` and in the
 * notebooks. The README's architecture section lists the same layers.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";

/** Areas by layer, bottom first. An area may import its own layer (without cycles) or lower ones. */
export const LAYERS: readonly (readonly string[])[] = [
  ["types", "text"],
  ["formats", "store"],
  ["llm", "retrieval", "metrics"],
  ["construct", "generate", "judge", "nuggets", "keypoints", "subq"],
  ["pipeline"],
  ["analysis", "report", "serve"],
  ["methods"],
  ["experiment", "cli"],
];

const root = new URL("../../", import.meta.url).pathname;
const layerOf = new Map(LAYERS.flatMap((areas, i) => areas.map((a) => [a, i] as const)));

function* files(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* files(p);
    else if (p.endsWith(".ts")) yield p;
  }
}

/** Every import of a library source file, as a path relative to the repository. */
function imports(file: string): string[] {
  const text = Deno.readTextFileSync(file);
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

const sources = [...files(join(root, "lib"))]
  .filter((f) => !f.endsWith("_test.ts") && !f.includes("/testdata/"));

Deno.test("every library area has a layer", () => {
  const areas = new Set(sources.map((f) => relative(root, f).split("/")[1]));
  assert.deepEqual([...areas].filter((a) => !layerOf.has(a)), []);
});

/** Layering problems of a graph from library files (repository-relative) to their imports. */
export function layeringProblems(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [rel, targets] of graph) {
    const area = rel.split("/")[1];
    for (const target of targets) {
      if (target.startsWith("tests/")) {
        problems.push(`${rel} imports ${target} (test helpers are passed in, not imported)`);
        continue;
      }
      const parts = target.split("/");
      if (parts[0] !== "lib" || parts[1] === area) continue;
      const other = parts[1];
      if ((layerOf.get(other) ?? -1) > (layerOf.get(area) ?? -1)) {
        problems.push(`${rel} imports ${target}: ${other} is above ${area}`);
      }
      if (parts.at(-1)!.startsWith("_")) {
        problems.push(`${rel} imports another area's private ${target}`);
      }
      if (!edges.has(area)) edges.set(area, new Set());
      edges.get(area)!.add(other);
    }
  }
  // Sideways imports within a layer must not form a cycle.
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
    if (from === to) return true;
    seen.add(from);
    return [...(edges.get(from) ?? [])].some((n) => !seen.has(n) && reaches(n, to, seen));
  };
  for (const [a, targets] of edges) {
    for (const b of targets) if (reaches(b, a)) problems.push(`cycle between ${a} and ${b}`);
  }
  return [...new Set(problems)].sort();
}

Deno.test("imports point down (or sideways without cycles), never into another area's _ files or tests/", () => {
  // Doc examples count as imports of their file: an example that imports a sideways area
  // closes a cycle as surely as the code does.
  const graph = new Map(sources.map((f) => [relative(root, f), [...imports(f), ...docImports(f)]]));
  assert.ok(graph.size > 200, `${graph.size} library files read`);
  assert.deepEqual(layeringProblems(graph), []);
});

Deno.test("notebooks import only the areas' mod.ts files", () => {
  const problems: string[] = [];
  for (const e of Deno.readDirSync(join(root, "notebooks"))) {
    if (!e.name.endsWith(".ipynb")) continue;
    const nb = JSON.parse(Deno.readTextFileSync(join(root, "notebooks", e.name)));
    for (const cell of nb.cells) {
      const src = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
      for (const m of src.matchAll(/from\s*["']([^"']+)["']/g)) {
        if (!/^@lib\/[a-z_]+\/mod\.ts$/.test(m[1]) && !/^(npm:|node:)/.test(m[1])) {
          problems.push(`${e.name} imports ${m[1]}`);
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the layering check catches upward imports, cycles, private files and tests/", () => {
  const graph = new Map([
    ["lib/construct/a.ts", ["lib/report/mod.ts", "lib/judge/mod.ts"]],
    ["lib/judge/b.ts", ["lib/construct/mod.ts", "lib/store/_bulk.ts"]],
    ["lib/store/c.ts", ["tests/support/fake_model.ts", "lib/types/mod.ts"]],
  ]);
  assert.deepEqual(layeringProblems(graph), [
    "cycle between construct and judge",
    "cycle between judge and construct",
    "lib/construct/a.ts imports lib/report/mod.ts: report is above construct",
    "lib/judge/b.ts imports another area's private lib/store/_bulk.ts",
    "lib/store/c.ts imports tests/support/fake_model.ts (test helpers are passed in, not imported)",
  ]);
});

/** Areas above `area` named by `targets` (repository-relative import targets). */
function above(area: string, targets: readonly string[]): string[] {
  return targets.filter((t) => {
    const [top, other] = t.split("/");
    return top === "lib" && other !== area &&
      (layerOf.get(other) ?? -1) > (layerOf.get(area) ?? -1);
  });
}

/** Import targets of the code examples in a file's doc comments (` * import ... from "..."`). */
function docImports(file: string): string[] {
  const out: string[] = [];
  for (
    const m of Deno.readTextFileSync(file).matchAll(
      /^\s*\*\s*(?:import|export)[^"'\n]*?from\s*["']([^"']+)["']/gm,
    )
  ) {
    if (m[1].startsWith("@lib/")) out.push(normalize(`lib/${m[1].slice(5)}`));
  }
  return out;
}

Deno.test("tests and doc examples beside library code import nothing above their area", () => {
  const problems: string[] = [];
  for (const f of files(join(root, "lib"))) {
    if (f.includes("/testdata/")) continue;
    const rel = relative(root, f);
    const area = rel.split("/")[1];
    const targets = f.endsWith("_test.ts") ? [...imports(f), ...docImports(f)] : docImports(f);
    for (const t of above(area, targets)) problems.push(`${rel} imports ${t}`);
  }
  assert.deepEqual(problems, []);
});

Deno.test("the check of tests and doc examples sees an import above the area", () => {
  assert.deepEqual(
    above("pipeline", ["lib/experiment/mod.ts", "lib/store/mod.ts", "lib/pipeline/x.ts"]),
    [
      "lib/experiment/mod.ts",
    ],
  );
});
