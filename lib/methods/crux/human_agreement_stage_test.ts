import assert from "node:assert/strict";
import { join } from "node:path";
import { openWorkspace, readMeasures, type Workspace } from "@lib/store/mod.ts";
import { humanAgreementAnalyses, saveAnalysis } from "@lib/analysis/mod.ts";
import { runStages } from "@lib/pipeline/mod.ts";
import { cruxChainEnv } from "./chain_env.ts";
import { humanAgreementStage } from "./human_agreement_stage.ts";

const LABELS = [
  { t1: [1, 1, 0, 0], t2: [1, 0, 0, 0], t3: [1, 1, 1, 0] },
  { t1: [1, 0, 0, 0], t2: [1, 0, 1, 0], t3: [1, 1, 1, 1] },
  { t1: [1, 1, 0, 1], t2: [0, 0, 0, 0], t3: [1, 1, 0, 0] },
];
/** The report judge's ratings of the human summaries (run oracle-result), per topic. */
const JUDGE: Record<string, number[]> = {
  t1: [5, 2, 4, 0],
  t2: [3, 0, 0, 0],
  t3: [4, 4, 1, 0],
};

async function fixture(ws: Workspace) {
  await ws.upsert(
    "questions",
    Object.keys(JUDGE).flatMap((t) =>
      [0, 1, 2, 3].map((k) => ({
        topicId: t,
        questionId: `${t}#q${k}`,
        kind: "subquestion",
        ordinal: k,
        text: `Q${k}?`,
      }))
    ),
  );
  await ws.upsert(
    "ratings",
    Object.entries(JUDGE).flatMap(([t, rs]) =>
      rs.map((rating, k) => ({
        topicId: t,
        itemId: `${t}:report`,
        questionId: `${t}#q${k}`,
        rating,
        judge: "lexical",
      }))
    ),
  );
}

Deno.test("measure:human-agreement stores the study's agreement and coverage, and the tables show the stored rows", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(join(dir, "ws"));
  try {
    await fixture(ws);
    const files = await Promise.all(LABELS.map(async (labels, k) => {
      const path = join(dir, `annotator_${k + 1}.jsonl`);
      const lines = Object.entries(labels).map(([id, a]) =>
        JSON.stringify({ id, question_based_nugget: {}, answerability: a })
      );
      await Deno.writeTextFile(path, lines.join("\n") + "\n");
      return path;
    }));
    const env = cruxChainEnv(
      {
        name: "x",
        workspace: ws.dir,
        analysis: { humanStudy: { files, run: "oracle-result" }, reportJudge: "lexical" },
      },
      { backends: () => () => Promise.resolve({}) },
    );
    const [stage] = await humanAgreementStage(env, ["rag-bm25", "oracle-result"]);
    assert.deepEqual([stage.id, stage.deps], ["measure:human-agreement", ["judge:oracle-result"]]);
    // Before the stage runs: blank, with the reason.
    const [before] = await humanAgreementAnalyses(ws);
    assert.match(before.cells![0].reason!, /^not stored/);
    assert.match(
      String(await stage.run(ws)),
      /human-study values of 3 annotators on run oracle-result$/,
    );
    const row = (measure: string, judge = "", topicId = "all") =>
      ws.measures({ source: "human-study" }).then((rs) =>
        rs.find((r) => r.measure === measure && r.judge === judge && r.topicId === topicId)
      );
    const close = (a: number | null | undefined, b: number) =>
      assert.ok(a != null && Math.abs(a - b) < 1e-12, `${a} vs ${b}`);
    // The hand-checked values of the analyses' test, now as stored rows.
    close((await row("study_fleiss_kappa"))?.value, 1 / 3);
    close((await row("study_randolph_kappa"))?.value, 1 / 3);
    close((await row("study_krippendorff_alpha"))?.value, 1 - (1 / 3) / (18 / 35));
    close((await row("study_cohen_kappa", "A1-A2"))?.value, 0.5);
    close((await row("study_judge_precision(tau=3)", "lexical"))?.value, 4 / 5);
    close((await row("study_judge_recall(tau=3)", "lexical"))?.value, 4 / 6);
    close((await row("study_judge_kappa(tau=3)", "lexical"))?.value, 0.5);
    close((await row("study_confusion_01", "A1-A2"))?.value, 2);
    close((await row("study_coverage(tau=3)", "lexical", "t1"))?.value, 2 / 4);
    close((await row("study_coverage", "A2", "t3"))?.value, 1);
    const fleiss = (await row("study_fleiss_kappa"))!;
    assert.deepEqual([fleiss.method, fleiss.topics, fleiss.topicSet], ["crux", 3, "scored(n=3)"]);
    assert.equal((await row("study_coverage", "A1", "t2"))?.topicSet, "topic(id=t2)");
    // The saved tables: every cell key names a stored row holding the value shown.
    const analyses = await humanAgreementAnalyses(ws, { run: "oracle-result" });
    assert.deepEqual(analyses.map((a) => a.name), [
      "human_agreement",
      "human_confusion",
      "human_topic_coverage",
    ]);
    const out = join(dir, "out");
    for (const a of analyses) await saveAnalysis(a, out);
    const stored = await readMeasures(ws, { source: "human-study" });
    let checked = 0;
    for (const a of analyses) {
      const text = await Deno.readTextFile(join(out, "tables", `${a.name}.cells.jsonl`));
      for (const line of text.trim().split("\n")) {
        const cell = JSON.parse(line);
        const r = stored.find((s) =>
          s.run === cell.key.run && s.source === cell.key.source && s.judge === cell.key.judge &&
          s.measure === cell.key.measure && s.topicId === cell.key.topicId
        );
        assert.ok(r, `no stored row for ${line}`);
        assert.equal(r.topicSet, cell.key.topicSet);
        const shown = a.table!.rows[cell.index].values[cell.column];
        assert.equal(shown, r.value, line);
        checked++;
      }
    }
    // Fleiss, Randolph, alpha, 3 Cohen, majority, 6 of the judge; 4 rows x 4 counts; 3 x 4 coverages.
    assert.equal(checked, 13 + 16 + 12);
    // An edited file is another input; the stage's rows are cleared with it.
    const params = JSON.stringify(stage.params);
    await Deno.writeTextFile(files[0], '{"id":"t1","answerability":[0,0,0,0]}\n');
    assert.notEqual(JSON.stringify((await humanAgreementStage(env, []))[0].params), params);
    await stage.clear!(ws);
    assert.deepEqual(await ws.measures({ source: "human-study" }), []);
    // A config that drops the study: run through the runner, its stage clears the
    // rows an earlier study stored, then stays up to date.
    await runStages(ws, [{ ...stage, deps: [] }], { order: ["measure"] });
    const kept = (await ws.measures({ source: "human-study" })).length;
    assert.ok(kept > 40, `${kept} rows of the study`);
    const dropped = cruxChainEnv({ name: "x", workspace: ws.dir }, {
      backends: () => () => Promise.resolve({}),
    });
    const [none] = await humanAgreementStage(dropped, ["rag-bm25", "oracle-result"]);
    assert.deepEqual((await runStages(ws, [none], { order: ["measure"] })).ran, [none.id]);
    assert.deepEqual(await ws.measures({ source: "human-study" }), []);
    assert.deepEqual((await runStages(ws, [none], { order: ["measure"] })).fresh, [none.id]);
    assert.deepEqual(
      await humanAgreementAnalyses(ws).then((a) =>
        a.map((x) => x.cells?.[0]?.reason?.slice(0, 10))
      ),
      [
        "not stored",
      ],
    );
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
