import assert from "node:assert/strict";
import { naturalCompare } from "./natural_compare.ts";
import { topicChart } from "./topic_chart.ts";

Deno.test("naturalCompare orders digit runs by value", () => {
  assert.deepEqual(
    ["test-10", "test-2", "test-1", "test-0", "test-12", "alpha"].sort(naturalCompare),
    ["alpha", "test-0", "test-1", "test-2", "test-10", "test-12"],
  );
  assert.deepEqual(["duc04-test-9", "duc04-test-49", "duc04-test-10"].sort(naturalCompare), [
    "duc04-test-9",
    "duc04-test-10",
    "duc04-test-49",
  ]);
  assert.ok(naturalCompare("q2", "q10") < 0);
  assert.equal(naturalCompare("a1", "a1"), 0);
  assert.ok(naturalCompare("a01", "a1") !== 0, "padding still orders deterministically");
});

Deno.test("the per-topic chart puts topics in natural order", () => {
  const values = ["test-10", "test-2", "test-1"].map((t) => ({
    topicId: t,
    condition: "bm25",
    value: 0.5,
  }));
  const spec = topicChart(values, { title: "coverage", y: "value", color: "condition" }) as {
    encoding?: { x?: { sort?: string[] } };
    layer?: { encoding?: { x?: { sort?: string[] } } }[];
  };
  const sort = spec.encoding?.x?.sort ??
    spec.layer?.find((l) => l.encoding?.x?.sort)?.encoding?.x?.sort;
  assert.deepEqual(sort, ["test-1", "test-2", "test-10"]);
});
