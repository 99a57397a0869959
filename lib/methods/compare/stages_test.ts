import assert from "node:assert/strict";
import { METHOD_HEADLINES, methodStages, parseMethodSection } from "@lib/methods/mod.ts";
import { openWorkspace } from "@lib/store/mod.ts";
import { kendallTau, pearson, spearman } from "@lib/metrics/mod.ts";
import type { CompareStageContext } from "./stages.ts";
import { runStages } from "@lib/pipeline/mod.ts";
import { methodAnalyses } from "./analyses.ts";
import { methodMeasureRows, RUNS, TOPICS, VALUES } from "@lib/pipeline/testdata/method_measures.ts";

const close = (a: number, b: number, eps = 1e-12) =>
  assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);

const ctx = (notes: string[] = []): CompareStageContext => ({
  backend: "offline",
  answerRuns: RUNS,
  answerStages: [],
  dataStages: [],
  judgeStages: [],
  outDir: "",
  configFile: "x.json",
  onNote: (_, m) => notes.push(m),
});

const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;

Deno.test("measure:compare stores correlations equal to a recomputation from the grid", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows());
    const notes: string[] = [];
    const specs = methodStages("compare", parseMethodSection("compare", {}, "x.json"), ctx(notes));
    const r = await runStages(ws, await specs, { order: ["judge", "measure"] });
    assert.deepEqual(r.ran, ["measure:compare"]);
    const absent = METHOD_HEADLINES.map((h) => h.method).filter((m) => !(m in VALUES));
    assert.deepEqual(notes, [`compare: no ${absent.join(", ")} scores in the measure table`]);
    const rows = await ws.query<
      {
        run: string;
        topicId: string;
        measure: string;
        value: number | null;
        judge: string;
        topics: number | null;
        topicSet: string | null;
      }
    >(
      "SELECT run, topic_id, measure, value, judge, topics, topic_set FROM measures WHERE method = 'compare'",
    );
    const get = (run: string, topicId: string, measure: string) =>
      rows.find((x) => x.run === run && x.topicId === topicId && x.measure === measure)!;
    // Every pair of the fixture's methods, each in sorted order.
    const keys = Object.keys(VALUES).sort();
    const pairs = keys.flatMap((a, i) => keys.slice(i + 1).map((b) => [a, b]));
    assert.equal(pairs.length, 3);
    const pairRows = rows.filter((x) => x.run.includes("~"));
    assert.deepEqual(
      [...new Set(pairRows.map((x) => x.run))].sort(),
      pairs.map(([a, b]) => `${a}~${b}`),
    );
    // Every pair's runs: the 4 runs both methods scored.
    for (const [a, b] of pairs) assert.equal(get(`${a}~${b}`, "all", "runs").value, 4);
    // Each method's mean per run over the answers every method scored (all five
    // topics): 3 methods x 4 runs, e.g. crux on direct (0.2+0.1+0.3+0.2+0.2)/5 = 0.2,
    // keypoints on oracle-result (0.8+0.6+0.7+0.9+0.8)/5 = 0.76.
    const means = await ws.query<
      {
        run: string;
        source: string;
        judge: string;
        measure: string;
        value: number;
        topics: number;
        topicSet: string;
      }
    >(
      "SELECT run, source, judge, measure, value, topics, topic_set FROM measures WHERE method = 'compare' AND source LIKE 'shared:%'",
    );
    assert.equal(means.length, 3 * 4);
    const system = (run: string, m: string) =>
      means.find((x) => x.run === run && x.source === `shared:${m}`)!;
    close(system("direct", "crux").value, 0.2);
    close(system("oracle-result", "keypoints").value, 0.76);
    assert.deepEqual(
      [
        system("direct", "crux").judge,
        system("direct", "crux").measure,
        system("direct", "crux").topics,
      ],
      ["lexical", "Cov", 5],
    );
    assert.equal(system("rag-bm25", "nuggets").measure, "strict_vital");
    assert.ok(means.every((x) => x.topicSet === "scored(n=5)"));
    assert.equal(get("crux~nuggets", "all", "kendall_tau_b").judge, "lexical~lexical");
    for (const [a, b] of pairs) {
      const x = VALUES[a].map(mean), y = VALUES[b].map(mean);
      close(get(`${a}~${b}`, "all", "kendall_tau_b").value!, kendallTau(x, y));
      close(get(`${a}~${b}`, "all", "spearman").value!, spearman(x, y));
      close(get(`${a}~${b}`, "all", "pearson").value!, pearson(x, y));
      const per = TOPICS.map((_, t) =>
        kendallTau(VALUES[a].map((r) => r[t]), VALUES[b].map((r) => r[t]))
      )
        .filter((v) => !Number.isNaN(v));
      close(get(`${a}~${b}`, "all", "mean_topic_kendall_tau_b").value!, mean(per));
      assert.equal(get(`${a}~${b}`, "all", "mean_topic_kendall_tau_b").topics, per.length);
      let discordant = 0;
      TOPICS.forEach((topic, t) => {
        let here = 0;
        for (let i = 0; i < RUNS.length; i++) {
          for (let j = i + 1; j < RUNS.length; j++) {
            if ((VALUES[a][i][t] - VALUES[a][j][t]) * (VALUES[b][i][t] - VALUES[b][j][t]) < 0) {
              here++;
            }
          }
        }
        assert.equal(get(`${a}~${b}`, topic, "discordant_pairs").value, here, `${a}~${b} ${topic}`);
        discordant += here;
      });
      assert.equal(get(`${a}~${b}`, "all", "discordant_pairs").value, discordant);
    }
    // Per-topic correlations are stored for every topic.
    assert.ok(Number.isFinite(get("crux~keypoints", "t1", "kendall_tau_b").value!));
    // Each row states its topic set: a topic's rows that topic, the means the
    // five topics every method scored.
    assert.equal(get("crux~keypoints", "t1", "kendall_tau_b").topicSet, "topic(id=t1)");
    for (const m of ["kendall_tau_b", "mean_topic_spearman", "discordant_pairs"]) {
      assert.equal(get("crux~nuggets", "all", m).topicSet, "scored(n=5)", m);
    }
    assert.ok(rows.every((x) => x.topicSet !== null));
    // A re-run with nothing changed is fresh; the stage writes nothing new.
    const again = await runStages(ws, await methodStages("compare", {}, ctx()), {
      order: ["judge", "measure"],
    });
    assert.deepEqual(again.fresh, ["measure:compare"]);
  } finally {
    ws.close();
  }
});

Deno.test("measure:compare runs over the answers every method scored and states that topic set", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    // Nuggets did not score t5 of any run: the comparison is over t1-t4.
    const rows = methodMeasureRows().filter((r) => !(r.method === "nuggets" && r.topicId === "t5"));
    await ws.upsert("measures", rows);
    await runStages(ws, await methodStages("compare", {}, ctx()), { order: ["measure"] });
    const stored = await ws.query<
      { run: string; measure: string; value: number; topicSet: string }
    >(
      "SELECT run, measure, value, topic_set FROM measures WHERE method = 'compare' AND topic_id = 'all'",
    );
    const get = (run: string, measure: string) =>
      stored.find((r) => r.run === run && r.measure === measure)!;
    assert.ok(stored.every((r) => r.topicSet === "scored(n=4)"));
    // crux~keypoints (both scored t5) is compared on t1-t4 too.
    const four = (m: string) => VALUES[m].map((r) => mean(r.slice(0, 4)));
    close(
      get("crux~keypoints", "kendall_tau_b").value,
      kendallTau(four("crux"), four("keypoints")),
    );
    close(get("crux~keypoints", "pearson").value, pearson(four("crux"), four("keypoints")));
    const t5 = await ws.query<{ n: number }>(
      "SELECT count(*) AS n FROM measures WHERE method = 'compare' AND topic_id = 't5'",
    );
    assert.equal(Number(t5[0].n), 0);
  } finally {
    ws.close();
  }
});

Deno.test("measure:compare with two runs stores undefined correlations as NULL", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows());
    const two = { ...ctx(), answerRuns: RUNS.slice(0, 2) };
    await runStages(ws, await methodStages("compare", {}, two), { order: ["measure"] });
    const rows = await ws.query<{ measure: string; value: number | null }>(
      "SELECT measure, value FROM measures WHERE method = 'compare' AND topic_id = 'all' AND run = 'crux~nuggets'",
    );
    for (const m of ["kendall_tau_b", "spearman", "pearson", "mean_topic_kendall_tau_b"]) {
      assert.equal(rows.find((r) => r.measure === m)?.value, null, m);
    }
  } finally {
    ws.close();
  }
});

Deno.test("judge:variance offline says the judge is deterministic and stores zero spread", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows());
    const notes: string[] = [];
    const section = parseMethodSection("compare", { variance: { samples: 5 } }, "x.json");
    const specs = await methodStages("compare", section, ctx(notes));
    const events: string[] = [];
    await runStages(ws, specs, {
      order: ["judge", "measure"],
      onEvent: (e) => events.push(e.message),
    });
    assert.ok(
      notes.includes(
        'offline judge "lexical" is deterministic: 5 samples are identical (spread 0)',
      ),
    );
    const rows = await ws.query<
      { run: string; measure: string; value: number; source: string; topicSet: string }
    >(
      "SELECT run, measure, value, source, topic_set FROM measures WHERE method = 'judge-variance' ORDER BY run, measure",
    );
    const oracle = rows.filter((r) => r.run === "oracle-result");
    assert.deepEqual(oracle.map((r) => r.measure), ["Cov_max", "Cov_mean", "Cov_min", "Cov_sd"]);
    close(oracle[1].value, mean(VALUES.crux[2]));
    assert.equal(oracle[3].value, 0);
    assert.equal(rows.find((r) => r.measure === "Cov_ranking_agreement")?.value, 1);
    assert.equal(rows.find((r) => r.measure === "samples")?.value, 5);
    assert.ok(rows.every((r) => r.source === "deterministic"));
    // Every row states the topic set of the stored means it spreads.
    assert.ok(rows.every((r) => r.topicSet === "answerable(tau=3,n=5)"));
  } finally {
    ws.close();
  }
});

Deno.test("compare section parser names the file and field", () => {
  assert.deepEqual(parseMethodSection("compare", undefined, "x.json"), {});
  assert.deepEqual(
    parseMethodSection("compare", {
      methods: ["crux", "subq"],
      judges: { subq: "m" },
      sources: { crux: "report" },
      minRuns: 4,
    }, "x.json"),
    { methods: ["crux", "subq"], judges: { subq: "m" }, sources: { crux: "report" }, minRuns: 4 },
  );
  assert.throws(
    () => parseMethodSection("compare", { method: [] }, "x.json"),
    /x\.json: compare\.method: unknown field/,
  );
  assert.throws(
    () => parseMethodSection("compare", { methods: ["bleu"] }, "x.json"),
    /compare\.methods: expected a list/,
  );
  assert.throws(
    () => parseMethodSection("compare", { minRuns: 1 }, "x.json"),
    /compare\.minRuns: expected an integer >= 2, got 1/,
  );
  assert.throws(
    () => parseMethodSection("compare", { variance: { samples: 3, temperature: 0 } }, "x.json"),
    /compare\.variance\.temperature: expected a number > 0, got 0/,
  );
});

Deno.test("measure:compare leaves out a run whose reports are all empty, as the comparison tables do", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    await ws.upsert("measures", methodMeasureRows());
    const gen = (run: string, topicId: string, text: string) => ({
      run,
      topicId,
      text,
      condition: run,
    });
    await ws.upsert("generations", [
      ...TOPICS.map((t) => gen("direct", t, " ")),
      ...["oracle-context", "oracle-result", "rag-bm25"].map((r) => gen(r, "t1", "Some text.")),
    ]);
    const specs = methodStages("compare", parseMethodSection("compare", {}, "x.json"), ctx());
    await runStages(ws, await specs, { order: ["judge", "measure"] });
    const [row] = await ws.query<{ value: number }>(
      `SELECT value FROM measures WHERE method = 'compare' AND run = 'crux~keypoints'
       AND topic_id = 'all' AND measure = 'kendall_tau_b'`,
    );
    // Without direct: crux means 0.70, 0.86, 0.50, keypoints 0.48, 0.76, 0.48 give
    // tau-b 2 / sqrt(3 * 2); with direct it would be 5 / sqrt(6 * 5).
    close(row.value, 2 / Math.sqrt(6));
  } finally {
    ws.close();
  }
});

Deno.test("measure:compare stores each run's means over that run's shared answers; the system table shows them", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    // Nuggets did not score t5 of direct: direct is compared on t1-t4, the other runs on t1-t5.
    const rows = methodMeasureRows().filter((r) =>
      !(r.method === "nuggets" && r.run === "direct" && r.topicId === "t5")
    );
    await ws.upsert("measures", rows);
    await runStages(ws, await methodStages("compare", {}, ctx()), { order: ["measure"] });
    const stored = await ws.query<
      { run: string; source: string; value: number; topics: number; topicSet: string }
    >(
      "SELECT run, source, value, topics, topic_set FROM measures WHERE method = 'compare' AND topic_id = 'all'",
    );
    const of = (run: string, source: string) =>
      stored.find((r) => r.run === run && r.source === source)!;
    // direct: crux (0.2+0.1+0.3+0.2)/4 = 0.2, nuggets (0.1+0.2+0.2+0.1)/4 = 0.15 over 4 topics.
    close(of("direct", "shared:crux").value, 0.2);
    close(of("direct", "shared:nuggets").value, 0.15);
    assert.deepEqual([of("direct", "shared:crux").topics, of("direct", "shared:crux").topicSet], [
      4,
      "scored(n=4)",
    ]);
    // rag-bm25 keeps all five: crux (0.5+0.3+0.6+0.4+0.7)/5 = 0.5.
    close(of("rag-bm25", "shared:crux").value, 0.5);
    assert.deepEqual(
      [of("rag-bm25", "shared:crux").topics, of("rag-bm25", "shared:crux").topicSet],
      [
        5,
        "scored(n=5)",
      ],
    );
    // The pairs' rows state the comparison's topic set, all five topics.
    assert.equal(of("crux~nuggets", "").topicSet, "scored(n=5)");
    const [system, corr] = await methodAnalyses(ws, {
      methods: METHOD_HEADLINES,
      significance: false,
    });
    // The system table shows the stored means and their topics; its cells name them.
    const direct = system.table!.rows[0];
    assert.equal(direct.label, "1. direct");
    assert.deepEqual([direct.values.topics, direct.values.crux], [
      4,
      of("direct", "shared:crux").value,
    ]);
    close(direct.values.nuggets as number, 0.15);
    const cell = (column: string) =>
      system.cells!.find((c) => c.index === 0 && c.column === column)!;
    assert.deepEqual(cell("crux").key, {
      run: "direct",
      source: "shared:crux",
      judge: "lexical",
      measure: "Cov",
      topicId: "all",
    });
    assert.deepEqual([cell("topics").key?.source, cell("topics").shows, cell("topics").derived], [
      "shared:crux",
      "topics",
      undefined,
    ]);
    // The correlations' runs are their stored rows; the note keeps the pairs' topic set.
    const runs = corr.cells!.find((c) => c.index === 0 && c.column === "runs")!;
    assert.deepEqual([runs.key?.measure, runs.key?.run, runs.derived], [
      "runs",
      "crux~keypoints",
      undefined,
    ]);
    assert.equal(corr.table!.rows[0].values.runs, 4);
    assert.ok(
      corr.table!.notes!.includes(
        "Correlations over the topic set scored(n=5): the topics of the answers every compared method scored.",
      ),
    );
  } finally {
    ws.close();
  }
});

Deno.test("methodAnalyses over other methods than the compare stage's shows no stored system mean", async () => {
  const ws = await openWorkspace(await Deno.makeTempDir());
  try {
    // Nuggets did not score t5 of rag-bm25: the stage's three methods compare rag-bm25 on t1-t4.
    const rows = methodMeasureRows().filter((r) =>
      !(r.method === "nuggets" && r.run === "rag-bm25" && r.topicId === "t5")
    );
    await ws.upsert("measures", rows);
    await runStages(ws, await methodStages("compare", {}, ctx()), { order: ["measure"] });
    const [stored] = await ws.query<{ value: number; topics: number }>(
      "SELECT value, topics FROM measures WHERE method = 'compare' AND run = 'rag-bm25' AND source = 'shared:crux'",
    );
    // crux on rag-bm25 over t1-t4: (0.5+0.3+0.6+0.4)/4 = 0.45.
    close(stored.value, 0.45);
    assert.equal(stored.topics, 4);
    // crux and keypoints alone both scored t5: rag-bm25 over t1-t5, (0.5+0.3+0.6+0.4+0.7)/5 = 0.5.
    const two = METHOD_HEADLINES.filter((h) => h.method === "crux" || h.method === "keypoints");
    const [system, corr] = await methodAnalyses(ws, { methods: two, significance: false });
    const bm25 = system.table!.rows[3];
    assert.equal(bm25.label, "4. rag-bm25");
    close(bm25.values.crux as number, 0.5);
    assert.equal(bm25.values.topics, 5);
    const cell = (column: string) =>
      system.cells!.find((c) => c.index === 3 && c.column === column)!;
    assert.equal(cell("topics").derived, "topics every method scored for the run");
    assert.notEqual(cell("crux").key?.source, "shared:crux");
    assert.equal(corr.cells!.find((c) => c.column === "runs")!.derived, "runs both methods scored");
  } finally {
    ws.close();
  }
});
