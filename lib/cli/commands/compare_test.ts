import assert from "node:assert/strict";
import { join } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../command.ts";
import { compareCommand } from "./compare.ts";
import { kendallTau, pearson, runSignificance, spearman } from "@lib/metrics/mod.ts";
import { openWorkspace, readStatistics } from "@lib/store/mod.ts";
import { METHOD_HEADLINES } from "@lib/methods/mod.ts";
import {
  methodMeasureRows,
  RUNS,
  TOPICS,
  VALUES,
} from "../../pipeline/testdata/method_measures.ts";

const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;

async function workspace(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await ws.upsert("measures", methodMeasureRows());
  } finally {
    ws.close();
  }
  return dir;
}

Deno.test("crux compare --workspace: JSON with every method per run, correlations recomputed", async () => {
  const dir = await workspace();
  const io = memoryIo();
  const code = await main(
    ["compare", "--workspace", dir, "--format", "json", "--trials", "500", "--seed", "3"],
    io,
    [compareCommand],
  );
  assert.equal(code, 0, io.stderr());
  const r = JSON.parse(io.stdout());
  // The registry's methods: those of the fixture present, the others missing.
  const present = METHOD_HEADLINES.filter((h) => h.method in VALUES);
  const missing = METHOD_HEADLINES.filter((h) => !(h.method in VALUES));
  assert.deepEqual(
    r.methods.map((m: { method: string }) => m.method),
    present.map((h) => h.method),
  );
  assert.deepEqual(r.missing, missing.map((h) => ({ method: h.method, measure: h.measure })));
  assert.ok(
    io.stderr().includes(
      `missing methods (no rows in the measure table): ${missing.map((h) => h.method).join(", ")}`,
    ),
    io.stderr(),
  );
  for (const s of r.system) {
    assert.deepEqual(Object.keys(s.values).sort(), Object.keys(VALUES).sort());
  }
  const k = r.correlations.find((c: { a: string; b: string }) =>
    c.a === "crux" && c.b === "keypoints"
  );
  const x = VALUES.crux.map(mean), y = VALUES.keypoints.map(mean);
  assert.equal(k.kendall, kendallTau(x, y));
  assert.equal(k.spearman, spearman(x, y));
  assert.equal(k.pearson, pearson(x, y));
  assert.equal(r.significance.crux.pairs.length, 6);
  // Outside an experiment the intervals and tests are computed as the statistics
  // stage would, with the command's settings, and shown; the workspace keeps none.
  const reference = runSignificance(
    RUNS.flatMap((run, i) =>
      TOPICS.map((topicId, t) => ({ run, topicId, value: VALUES.crux[i][t] }))
    ),
    { trials: 500, seed: 3 },
  );
  assert.deepEqual(r.significance.crux.pairs, JSON.parse(JSON.stringify(reference.pairs)));
  assert.deepEqual(
    r.significance.crux.intervals,
    reference.intervals.map((i) => ({
      run: i.run,
      topics: i.topics,
      lower: i.lower,
      upper: i.upper,
    })),
  );
  const system = await Deno.readTextFile(join(dir, "tables/method_system.csv"));
  const ci = reference.intervals[3];
  assert.ok(system.includes(`"[${ci.lower.toFixed(3)}, ${ci.upper.toFixed(3)}]"`), system);
  const ws = await openWorkspace(dir);
  try {
    assert.deepEqual(await readStatistics(ws), []);
  } finally {
    ws.close();
  }
  for (
    const f of [
      "tables/method_system.csv",
      "tables/method_correlations.md",
      "figures/method_correlations.svg",
    ]
  ) {
    await Deno.stat(join(dir, f));
  }
  // Seeded: the same output twice.
  const io2 = memoryIo();
  await main(
    ["compare", "--workspace", dir, "--format", "json", "--trials", "500", "--seed", "3"],
    io2,
    [compareCommand],
  );
  assert.equal(io2.stdout(), io.stdout());
});

Deno.test("crux compare: table output, method subset, usage errors", async () => {
  const dir = await workspace();
  const io = memoryIo();
  assert.equal(
    await main(
      ["compare", "--workspace", dir, "--methods", "crux,nuggets", "--no-significance"],
      io,
      [compareCommand],
    ),
    0,
  );
  assert.match(io.stdout(), /CRUX Cov/);
  assert.doesNotMatch(io.stdout(), /KPR/);
  for (
    const [args, message] of [
      [[], /either --config FILE or --workspace DIR/],
      [["--workspace", dir, "--methods", "bleu"], /unknown method "bleu"/],
      [["--workspace", dir, "--judge", "nuggets"], /--judge expects METHOD=NAME/],
      [["--workspace", dir, "--source", "bleu=x"], /--source expects METHOD=NAME/],
      [["--workspace", dir, "--format", "xml"], /--format must be table, json or csv/],
    ] as const
  ) {
    const e = memoryIo();
    assert.equal(await main(["compare", ...args], e, [compareCommand]), 2, args.join(" "));
    assert.match(e.stderr(), message);
  }
  const e = memoryIo();
  assert.equal(await main(["compare", "--workspace", `${dir}/nope`], e, [compareCommand]), 1);
  assert.match(e.stderr(), /has no workspace\.duckdb/);
});
