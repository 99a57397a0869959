import assert from "node:assert/strict";
import { runExperiment } from "@lib/pipeline/mod.ts";

const SAMPLE = new URL("../../datasets/sample", import.meta.url).pathname;

Deno.test("sample chain: context scores of generation agree with the evaluator's Cov@oracle / Den@oracle", async () => {
  const dir = await Deno.makeTempDir({ prefix: "crux-sample-" });
  try {
    const config = { workspace: dir, dataset: { source: "sample" as const, dir: SAMPLE } };
    const r = await runExperiment(config);
    // Imported human ratings drive selection: no lexical rating of passages is made.
    assert.equal(r.construct.find((s) => s.step === "ratings"), undefined);
    const rag = r.reports.find((x) => x.run === "rag-bm25")!;
    const measure = (m: string) =>
      r.measures.find((x) => x.run === "bm25" && x.measure === m)!.value;
    // rag-bm25's contexts are the top |P*| of run bm25: the two code paths must agree.
    assert.ok(Math.abs(rag.contextCoverage - measure("Cov@oracle")) < 1e-12);
    assert.ok(Math.abs(rag.contextDensity - measure("Den@oracle")) < 1e-12);
    const oracle = r.reports.find((x) => x.run === "oracle-context")!;
    assert.equal(oracle.contextCoverage, 1);
    assert.ok(Math.abs(oracle.contextDensity - 1) < 1e-12);
    assert.equal(
      r.reports.find((x) => x.run === "direct")!.coverage,
      0,
      "extractive direct reports are empty",
    );

    const again = await runExperiment(config);
    assert.deepEqual(again.generated.map((g) => g.written), [0, 0, 0]);
    assert.deepEqual(again.reports, r.reports);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
