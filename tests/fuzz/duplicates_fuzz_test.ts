/**
 * Fuzz tests of the rules every reader shares: an exact repeat of a record is
 * dropped and counted, a conflicting repeat is an error naming both lines;
 * numbers outside the 64-bit float range and negative ranks are errors naming
 * file, line and field. Each case builds a random file, repeats some of its
 * lines (exactly or with another value) at random places, and checks the
 * reader's answer against what was done to the file.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  InputError,
  parseEntailments,
  parseJudgments,
  parseKeyPoints,
  parseNuggetAssignments,
  parseNuggetCreationInput,
  parseNuggetQuestions,
  parseNuggets,
  parseNuggetScores,
  parseQrels,
  parseRagAnswers,
  parseRun,
  parseStatementSupport,
  parseTypedCoverage,
} from "@lib/formats/mod.ts";
import { prepareJudged, scanQrelsTable, scanRunTable } from "@lib/metrics/mod.ts";

/** A file of distinct records, and where copies of some lines are inserted. */
interface Plan {
  records: number;
  /** [index of the copied line, insert position, conflicting?] */
  repeats: [number, number, boolean][];
}

const plans: fc.Arbitrary<Plan> = fc.integer({ min: 1, max: 30 }).chain((records) =>
  fc.record({
    records: fc.constant(records),
    repeats: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: records - 1 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.boolean(),
      ),
      { maxLength: 6 },
    ),
  })
);

/**
 * Lays the plan out: `line(i, conflicting)` writes record i (or a conflicting
 * version). Returns the text, the exact repeats, and the first conflicting
 * repeat's line with the line of the record it repeats.
 */
function layout(plan: Plan, line: (i: number, conflict: boolean) => string) {
  const lines: { record: number; conflict: boolean; text: string }[] = [];
  for (let i = 0; i < plan.records; i++) {
    lines.push({ record: i, conflict: false, text: line(i, false) });
  }
  for (const [record, at, conflict] of plan.repeats) {
    // After the record's own line, so the original comes first.
    const first = lines.findIndex((l) => l.record === record);
    const pos = first + 1 + (at % (lines.length - first));
    lines.splice(pos, 0, { record, conflict, text: line(record, conflict) });
  }
  let exact = 0;
  let conflict: { line: number; first: number } | undefined;
  const seen = new Map<number, { line: number; conflict: boolean }>();
  lines.forEach((l, k) => {
    const earlier = seen.get(l.record);
    if (!earlier) {
      seen.set(l.record, { line: k + 1, conflict: l.conflict });
      return;
    }
    if (earlier.conflict === l.conflict) exact++;
    else conflict ??= { line: k + 1, first: earlier.line };
  });
  return { text: lines.map((l) => l.text).join("\n") + "\n", exact, conflict };
}

/** Asserts `read` drops and counts exact repeats, or names both lines of the first conflict. */
function checkRule(
  plan: Plan,
  line: (i: number, conflict: boolean) => string,
  read: (text: string) => { kept: number; dropped: number },
  field: string,
) {
  const { text, exact, conflict } = layout(plan, line);
  if (!conflict) {
    assert.deepEqual(read(text), { kept: plan.records, dropped: exact });
    return;
  }
  assert.throws(() => read(text), (error: unknown) => {
    assert.ok(error instanceof InputError, String(error));
    const p = error.problems[0];
    assert.equal(p.file, "f");
    assert.equal(p.line, conflict.line);
    assert.equal(p.field, field);
    assert.match(p.message, new RegExp(`line ${conflict.first}\\b`));
    return true;
  });
}

Deno.test("qrels: exact repeats dropped and counted, conflicting ones name both lines", () => {
  const line = (i: number, c: boolean) => `q${i % 3} 0 d${i} ${c ? 7 : i % 3}`;
  fc.assert(fc.property(plans, (plan) => {
    // The strict reader.
    checkRule(plan, line, (text) => {
      let dropped = -1;
      const kept = parseQrels(text, { file: "f", onDuplicates: (n) => dropped = n }).length;
      return { kept, dropped };
    }, "docid");
    // crux eval's fast path: the scanned table, prepared for evaluation.
    checkRule(plan, line, (text) => {
      const judged = prepareJudged({ qrelsTable: scanQrelsTable(text)!, qrelsFile: "f" });
      let kept = 0;
      for (const t of judged.topics.values()) kept += t.qrels!.docs.length;
      return { kept, dropped: judged.qrelsRepeats ?? 0 };
    }, "docid");
  }));
});

Deno.test("judgments: exact repeats dropped and counted, conflicting ones name both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      id: `t${i % 2}`,
      docid: `t${i % 2}:d#${i}`,
      rating: [i % 6, c ? 1 : 0],
    });
  fc.assert(fc.property(plans, (plan) => {
    checkRule(plan, line, (text) => {
      let dropped = -1;
      const kept = parseJudgments(text, { file: "f", onDuplicates: (n) => dropped = n }).length;
      return { kept, dropped };
    }, "docid");
  }));
});

Deno.test("RAG answers: exact repeats dropped and counted, conflicting ones name both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      run_id: `r${i % 2}`,
      topic_id: `t${i}`,
      topic: "?",
      references: ["d1"],
      answer: [{ text: c ? "Another answer." : `Answer ${i}.`, citations: [0] }],
    });
  fc.assert(fc.property(plans, (plan) => {
    checkRule(plan, line, (text) => {
      let dropped = -1;
      const kept = parseRagAnswers(text, { file: "f", onDuplicates: (n) => dropped = n }).length;
      return { kept, dropped };
    }, "topic_id");
  }));
});

/** A reader taking the file's text and an `onDuplicates` callback; returns the records kept. */
type Parse = (text: string, opts: { file: string; onDuplicates: (n: number) => void }) => unknown[];

/** `checkRule` for a reader of the `Parse` shape. */
function checkParse(
  plan: Plan,
  line: (i: number, c: boolean) => string,
  parse: Parse,
  field: string,
) {
  checkRule(plan, line, (text) => {
    let dropped = -1;
    const kept = parse(text, { file: "f", onDuplicates: (n) => dropped = n }).length;
    return { kept, dropped };
  }, field);
}

Deno.test("key points: a question repeated exactly is dropped and counted, with other points it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({ qid: `q${i}`, keypoints: [{ id: "k1", text: c ? "Other." : `Point ${i}.` }] });
  fc.assert(fc.property(plans, (plan) => checkParse(plan, line, parseKeyPoints, "qid")));
});

Deno.test("entailments: a question and run repeated exactly is dropped and counted, with other labels it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      qid: `q${i % 4}`,
      run_id: `r${i}`,
      labels: [{ keypoint_id: "k1", label: c ? "no" : "yes" }],
    });
  fc.assert(fc.property(plans, (plan) => checkParse(plan, line, parseEntailments, "run_id")));
});

Deno.test("nuggets: a query repeated exactly is dropped and counted, with other nuggets it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      qid: `q${i}`,
      query: "why?",
      nuggets: [{ text: `n${i}`, importance: c ? "okay" : "vital" }],
    });
  fc.assert(fc.property(plans, (plan) => checkParse(plan, line, parseNuggets, "qid")));
});

Deno.test("nugget assignments: a query and run repeated exactly is dropped and counted, with other labels it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      qid: `q${i}`,
      run_id: `r${i % 3}`,
      nuggets: [{ text: "a", importance: "vital", assignment: c ? "not_support" : "support" }],
    });
  fc.assert(fc.property(plans, (plan) => checkParse(plan, line, parseNuggetAssignments, "run_id")));
});

Deno.test("typed coverage: a judgment repeated exactly is dropped and counted, with another value it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      question_id: `q${i % 2}`,
      sub_question: `Who ${i}?`,
      type: "core",
      system: "s",
      answered: c,
    });
  fc.assert(
    fc.property(plans, (plan) => checkParse(plan, line, parseTypedCoverage, "sub_question")),
  );
});

Deno.test("nugget questions: a topic repeated exactly is dropped and counted, with other nuggets it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({ id: `t${i}`, nuggets: [[`Who ${i}?`, c ? "Bo" : "Ann"]] });
  fc.assert(fc.property(plans, (plan) => checkParse(plan, line, parseNuggetQuestions, "id")));
});

Deno.test("nugget creation input: a query repeated exactly is dropped and counted, with other candidates it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      query: { qid: `q${i}`, text: "why?" },
      candidates: [{ docid: "d1", judgment: c ? 2 : 1, doc: { segment: "a" } }],
    });
  fc.assert(
    fc.property(plans, (plan) => checkParse(plan, line, parseNuggetCreationInput, "query.qid")),
  );
});

Deno.test("statement support: a question and run repeated exactly is dropped and counted, with other statements it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      qid: `q${i % 3}`,
      run_id: `r${i}`,
      statements: [{ text: "A.", label: "yes", supported: !c }],
    });
  fc.assert(fc.property(plans, (plan) => checkParse(plan, line, parseStatementSupport, "run_id")));
});

Deno.test("nugget scores: a row repeated exactly is dropped and counted, with other scores it names both lines", () => {
  const line = (i: number, c: boolean) =>
    JSON.stringify({
      qid: `q${i}`,
      run_id: `r${i % 2}`,
      strict_vital_score: c ? 1 : 0.5,
      strict_all_score: 0.5,
      vital_score: 0.5,
      all_score: 0.5,
    });
  fc.assert(fc.property(plans, (plan) => checkParse(plan, line, parseNuggetScores, "qid")));
});

/** Numbers a float cannot hold, as files spell them. */
const hugeNumbers = fc.tuple(
  fc.constantFrom("", "-", "+"),
  fc.integer({ min: 1, max: 9 }),
  fc.constantFrom("", ".5", ".0"),
  fc.constantFrom("e", "E"),
  fc.integer({ min: 309, max: 99999 }),
).map(([sign, d, frac, e, exp]) => `${sign}${d}${frac}${e}${exp}`);

Deno.test("numbers outside the float range are errors naming file, line and field", () => {
  fc.assert(fc.property(
    hugeNumbers,
    fc.integer({ min: 0, max: 5 }),
    (value, at) => {
      // A run score.
      const run = Array.from(
        { length: 6 },
        (_, i) => `q1 Q0 d${i} ${i + 1} ${i === at ? value : 1} r`,
      )
        .join("\n");
      assert.equal(scanRunTable(run), undefined); // the fast path leaves it to the strict parser
      assert.throws(() => parseRun(run, { file: "f" }), (error: unknown) => {
        assert.ok(error instanceof InputError);
        assert.deepEqual(
          [error.problems[0].line, error.problems[0].field],
          [at + 1, "score"],
        );
        assert.match(error.message, /out of range \(overflows a 64-bit float\)/);
        return true;
      });
      // A judgment rating (JSON reads it as Infinity; JSON has no leading +).
      const json = value.replace(/^\+/, "");
      const judgments = Array.from(
        { length: 6 },
        (_, i) => `{"id": "t", "docid": "t:d#${i}", "rating": [1, ${i === at ? json : 2}]}`,
      ).join("\n");
      assert.throws(() => parseJudgments(judgments, { file: "f" }), (error: unknown) => {
        assert.ok(error instanceof InputError);
        assert.deepEqual([error.problems[0].line, error.problems[0].field], [at + 1, "rating[1]"]);
        assert.match(error.message, /outside the 64-bit float range/);
        assert.doesNotMatch(error.message, /found null/);
        return true;
      });
    },
  ));
});

Deno.test("ranks: negative ones are errors naming file, line and field; 0 and up are read", () => {
  fc.assert(fc.property(
    fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 12 }),
    (ranks) => {
      const run = ranks.map((r, i) => `q1 Q0 d${i} ${r} ${10 - i} r`).join("\n") + "\n";
      const bad = ranks.map((r, i) => [r, i + 1]).filter(([r]) => r < 0).map(([, line]) => line);
      if (!bad.length) {
        assert.deepEqual(parseRun(run, { file: "f" }).map((r) => r.rank), ranks);
        assert.equal(scanRunTable(run)!.size, ranks.length);
        return;
      }
      assert.equal(scanRunTable(run), undefined);
      assert.throws(() => parseRun(run, { file: "f" }), (error: unknown) => {
        assert.ok(error instanceof InputError);
        assert.deepEqual(error.problems.map((p) => [p.line, p.field]), bad.map((l) => [l, "rank"]));
        assert.match(error.problems[0].message, /is negative; ranks count from 0 or 1/);
        return true;
      });
    },
  ));
});
