import assert from "node:assert/strict";
import type { TypedCoverageLine } from "@lib/formats/mod.ts";
import { seededRandom } from "@lib/metrics/mod.ts";
import { systemScores } from "./system_scores.ts";

const line = (
  q: string,
  type: TypedCoverageLine["type"],
  answered: boolean,
  extra: Partial<TypedCoverageLine> = {},
): TypedCoverageLine => ({
  questionId: q,
  subQuestion: `${type}-${Math.random()}`,
  type,
  system: "s",
  answered,
  ...extra,
});

Deno.test("systemScores: hand-checked #1-#6, all, counts and rating", () => {
  const lines = [
    line("q1", "core", true, { retrieved: true, chunkShare: 0.5, position: 10 }),
    line("q1", "core", true, { retrieved: false, chunkShare: 0, position: 30 }),
    line("q1", "core", false, { retrieved: true, chunkShare: 0.25 }),
    line("q1", "core", false, { retrieved: false, chunkShare: 0 }),
    line("q1", "background", true, { retrieved: true, position: 50 }),
    line("q1", "follow-up", true, { retrieved: false, position: 90 }),
    line("q2", "core", true, { retrieved: true }),
    line("q2", "follow-up", false, { retrieved: false }),
  ];
  const s = systemScores(lines);
  // core 3/5 answered, retrieved 3/5; background 1/1; follow-up 1/2, 0/2; all 5/8, 4/8.
  assert.deepEqual(s.answered, { core: 0.6, background: 1, "follow-up": 0.5, all: 5 / 8 });
  assert.deepEqual(s.retrieved, { core: 0.6, background: 1, "follow-up": 0, all: 0.5 });
  assert.deepEqual(s.counts, { core: 5, background: 1, "follow-up": 2 });
  // #3 P(a,r)=2/5 / P(r)=3/5; #4 P(!a,!r)=1/5 / P(!a)=2/5.
  assert.ok(Math.abs(s.metrics.m3! - 2 / 3) < 1e-12);
  assert.ok(Math.abs(s.metrics.m4! - 0.5) < 1e-12);
  // #5 mean(0.5, 0) - mean(0.25, 0) = 0.125 (q2's core line has no share).
  assert.equal(s.metrics.m5, 0.125);
  // #6 90 - (mean(10, 30) + 50) / 2 = 55.
  assert.equal(s.metrics.m6, 55);
  // q1: 0.5 + 0.5 x 1 - 1 x 1 = 0; q2: 1 + 0 - 0 = 1 -> mean 0.5.
  assert.equal(s.rating, 0.5);
  assert.equal(s.questions, 2);
});

Deno.test("systemScores: missing inputs and empty denominators are null, never 0 or NaN", () => {
  const s = systemScores([line("q", "core", true), line("q", "core", false)]);
  assert.equal(s.retrieved, undefined);
  assert.deepEqual(s.metrics, { m3: null, m4: null, m5: null, m6: null });
  assert.deepEqual(s.answered, { core: 0.5, background: null, "follow-up": null, all: 0.5 });
  // Retrieved given, but no core sub-question retrieved: #3's denominator is 0.
  const t = systemScores([line("q", "core", true, { retrieved: false })]);
  assert.equal(t.metrics.m3, null);
  assert.equal(t.metrics.m4, null); // P(not answered) = 0
  assert.equal(systemScores([]).rating, null);
  assert.equal(
    JSON.stringify(systemScores([]).metrics),
    '{"m3":null,"m4":null,"m5":null,"m6":null}',
  );
});

Deno.test("systemScores: generated judgments reproduce planted shares", () => {
  // 40 questions x (10 core, 6 background, 4 follow-up); answered exactly the first
  // 7 core, 3 background and 1 follow-up of each question, in shuffled line order.
  const rnd = seededRandom(7);
  const lines: TypedCoverageLine[] = [];
  for (let q = 0; q < 40; q++) {
    const plan: [TypedCoverageLine["type"], number, number][] = [["core", 10, 7], [
      "background",
      6,
      3,
    ], ["follow-up", 4, 1]];
    for (const [type, n, k] of plan) {
      for (let i = 0; i < n; i++) {
        lines.push({
          questionId: `q${q}`,
          subQuestion: `${type}${i}`,
          type,
          system: "s",
          answered: i < k,
        });
      }
    }
  }
  lines.sort(() => rnd() - 0.5);
  const s = systemScores(lines);
  assert.deepEqual(s.answered, { core: 0.7, background: 0.5, "follow-up": 0.25, all: 11 / 20 });
  assert.ok(Math.abs(s.rating! - (0.7 + 0.25 - 0.25)) < 1e-12);
  assert.ok(
    Math.abs(
      systemScores(lines, { weights: { core: 1, background: 0, "follow-up": 0 } }).rating! - 0.7,
    ) < 1e-12,
  );
});
