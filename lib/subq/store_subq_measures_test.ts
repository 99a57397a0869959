import assert from "node:assert/strict";
import type { TypedCoverageLine } from "@lib/formats/mod.ts";
import { SUBQ_MEASURES, subqMeasureRows } from "./store_subq_measures.ts";

const l = (
  system: string,
  q: string,
  type: TypedCoverageLine["type"],
  answered: boolean,
  retrieved?: boolean,
) => ({
  questionId: q,
  subQuestion: `${q}-${type}-${answered}`,
  type,
  system,
  answered,
  ...(retrieved === undefined ? {} : { retrieved, chunkShare: retrieved ? 1 : 0 }),
});

Deno.test("subqMeasureRows: per topic and 'all', contract names, nulls left out", () => {
  const rows = subqMeasureRows([
    l("rag", "t1", "core", true, true),
    l("rag", "t1", "core", false, false),
    l("rag", "t2", "core", true, false),
    l("direct", "t1", "core", false),
  ], { judge: "j", source: "decompose" });
  const get = (run: string, topic: string, measure: string) =>
    rows.find((r) => r.run === run && r.topicId === topic && r.measure === measure)?.value;
  assert.equal(get("rag", "t1", "subq_answered_core"), 0.5);
  assert.equal(get("rag", "all", "subq_answered_core"), 2 / 3);
  assert.equal(get("rag", "all", "subq_retrieved_core"), 1 / 3);
  assert.ok(Math.abs(get("rag", "all", "subq_m3")! - 1) < 1e-12); // (1/3) / (1/3)
  assert.ok(Math.abs(get("rag", "all", "subq_m4")! - 1) < 1e-12); // (1/3) / (1/3)
  assert.equal(get("rag", "all", "subq_m5"), 0.5 - 0); // mean(1, 0) - mean(0)
  assert.equal(get("rag", "all", "subq_rating"), (0.5 + 1) / 2);
  assert.equal(get("direct", "all", "subq_retrieved_core"), undefined);
  assert.equal(get("direct", "all", "subq_m3"), undefined);
  assert.equal(get("rag", "all", "subq_answered_background"), undefined);
  const all = rows.filter((r) => r.run === "rag" && r.topicId === "all");
  assert.ok(
    all.every((r) =>
      r.topics === 2 && r.method === "subq" && r.cutoff === "" && r.name === r.measure
    ),
  );
  assert.ok(
    rows.every((r) =>
      SUBQ_MEASURES.includes(r.measure) && r.judge === "j" && r.source === "decompose"
    ),
  );
  assert.equal(SUBQ_MEASURES.length, 13);
});
