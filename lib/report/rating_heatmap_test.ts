import assert from "node:assert/strict";
import type { Rating } from "@lib/types/records.ts";
import { ratingHeatmap } from "./rating_heatmap.ts";

const R = (
  itemId: string,
  q: number,
  rating: number,
  judge = "lexical",
  topicId = "t1",
): Rating => ({
  topicId,
  itemId,
  questionId: `${topicId}#q${q}`,
  rating,
  judge,
});

const RATINGS = [R("t1:0#0", 1, 5), R("t1:0#0", 2, 0), R("t1:1#1", 1, -1), R("t1:1#1", 2, 3)];

Deno.test("ratingHeatmap builds a passages x questions matrix on a fixed 0-5 scale", () => {
  const spec = ratingHeatmap(RATINGS, { title: "Ratings of t1" });
  const values = (spec.data as { values: Record<string, unknown>[] }).values;
  assert.deepEqual(values[0], {
    topicId: "t1",
    itemId: "t1:0#0",
    questionId: "t1#q1",
    rating: 5,
    judge: "lexical",
    item: "0#0",
    question: "q1",
  });
  const enc = spec.encoding as Record<string, Record<string, unknown>>;
  assert.deepEqual(enc.x.sort, ["q1", "q2"]);
  assert.deepEqual(enc.y.sort, ["0#0", "1#1"]);
  const layers = spec.layer as { mark: { type: string }; encoding: Record<string, unknown> }[];
  const color = layers[0].encoding.color as Record<string, unknown>;
  assert.deepEqual((color.scale as { domain: number[] }).domain, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(color.condition, { test: "datum.rating < 0", value: "#bdbdbd" });
  assert.deepEqual(layers.map((l) => l.mark.type), ["rect", "text"]);
  assert.deepEqual(spec.width, { step: 18 });
});

Deno.test("ratingHeatmap selects one topic and judge from mixed ratings", () => {
  const mixed = [...RATINGS, R("t2:0#0", 1, 2, "lexical", "t2"), R("t1:0#0", 1, 4, "gpt")];
  assert.throws(() => ratingHeatmap(mixed, { title: "t" }), {
    name: "RangeError",
    message: /the ratings hold 2 values of topicId \(t1, t2\); choose one with the topicId option/,
  });
  const spec = ratingHeatmap(mixed, { title: "t", topicId: "t1", judge: "gpt", showValues: false });
  assert.equal((spec.data as { values: unknown[] }).values.length, 1);
  assert.equal((spec.layer as unknown[]).length, 1);
  assert.throws(() => ratingHeatmap(mixed, { title: "t", topicId: "t9", judge: "gpt" }), {
    message: /no ratings of topic "t9" by judge "gpt"/,
  });
});

Deno.test("ratingHeatmap rejects duplicate cells and ratings out of range", () => {
  assert.throws(() => ratingHeatmap([...RATINGS, R("t1:0#0", 1, 4)], { title: "t" }), {
    message: /item "t1:0#0" question "t1#q1" is rated twice by "lexical"/,
  });
  assert.throws(() => ratingHeatmap([R("t1:0#0", 1, 7)], { title: "t" }), {
    message: /has rating 7; expected an integer from -1 to 5/,
  });
});
