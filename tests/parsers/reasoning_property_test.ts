/**
 * Reasoning and denial as properties: a reasoning block, whatever it holds
 * (ratings, labels, rankings, lists, tags), never changes what a parser reads
 * from the final answer; a label named only to deny it is never read as that
 * label, a rating named only as a hypothesis is never the rating, and a list
 * corrected later is never read half-corrected. The final answers are the answer corpus's, so every parser is covered.
 * Seeded, so a failure reproduces.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseLabel, parseLabels, parseRating, type ParseResult } from "@lib/llm/mod.ts";
import { parseCoverageAnswer, parseSubquestionType } from "@lib/subq/mod.ts";
import { parseWindowLabels } from "@lib/nuggets/_parse_window.ts";
import { CORPUS_FILES, PARSERS, readCorpusFile } from "./_corpus.ts";

const RUNS = { numRuns: 300, seed: 38 };

interface Corpus {
  parser: string;
  args: Record<string, unknown>;
  cases: { answer: string; [arg: string]: unknown }[];
}
const corpus = CORPUS_FILES.map((f) => readCorpusFile<Corpus>(f));
/** Every corpus answer with the call that reads it. */
const answers = corpus.flatMap((c) =>
  c.cases.map((k) => ({
    parser: c.parser,
    answer: k.answer,
    read: (t: string) => PARSERS[c.parser](t, { ...c.args, ...k }),
  }))
);

/** What a reasoning model tries out while thinking: values of every kind, and any text. */
const thought = fc.array(
  fc.oneof(
    fc.constantFrom(
      "Rating: 5",
      "5",
      "[4]",
      "##final score: 0",
      "[Yes]",
      "No.",
      "Label: neutral",
      "core",
      "Type: follow-up",
      "background",
      "Answered.",
      "None",
      "[1] > [2] > [3]",
      "3 > 2 > 1",
      '["support", "support", "support"]',
      "1. not_support\n2. support\n3. support",
      '{"label": "no", "reason": "x"}',
      '[{"point": "draft", "spans": []}]',
      "Point 1: draft [1, 2, 3]",
      "<q>Draft?</q>",
      "Correction: the second should be support",
      "<think>",
      "\n",
    ),
    fc.string({ maxLength: 30 }),
  ),
  { maxLength: 8 },
).map((parts) => parts.join(" "))
  // A closing tag would end the block; the content is anything else.
  .filter((t) => !/(?:<|◁)\/\s*(?:think|thinking|reasoning)\s*(?:>|▷)|<\|channel\|>/i.test(t));

const same = (a: ParseResult<unknown>, b: ParseResult<unknown>) =>
  a.ok ? b.ok && JSON.stringify(a.value) === JSON.stringify(b.value) : !b.ok;

Deno.test("property: a reasoning block, whatever it holds, never changes the value read", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...answers),
      thought,
      fc.constantFrom("think", "thinking", "reasoning", "THINK"),
      fc.constantFrom("block", "prompt-opened"),
      ({ answer, read, parser }, reasoning, tag, form) => {
        // Either a whole block before the answer, or reasoning whose opening
        // tag was part of the prompt (only its closing tag is generated).
        const text = form === "block"
          ? `<${tag}>${reasoning}</${tag}>\n\n${answer}`
          : `${
            reasoning.replace(/(?:<|◁)\s*(?:think|thinking|reasoning)\s*(?:>|▷)/gi, "")
          }</${tag}>\n${answer}`;
        const before = read(answer);
        const after = read(text);
        assert.ok(same(before, after), `${parser}: ${JSON.stringify(text)}`);
        if (!after.ok) assert.equal(after.raw, text, `${parser}: raw text kept`);
      },
    ),
    { ...RUNS, numRuns: 2000 },
  );
});

Deno.test("property: an answer cut while reasoning states no value", () => {
  fc.assert(
    fc.property(fc.constantFrom(...answers), thought, ({ answer, read, parser }, reasoning) => {
      // The final answer sits inside a block never closed: it is reasoning too.
      const text = `<think>${reasoning}\n${answer}`;
      if (/(?:<|◁)\/\s*(?:think|thinking|reasoning)\s*(?:>|▷)|<\|channel\|>/i.test(answer)) return;
      assert.equal(read(text).ok, false, `${parser}: ${JSON.stringify(text)}`);
    }),
    RUNS,
  );
});

/** Ways to deny a label, and prose that may stand around the denial. */
const denial = (l: string) =>
  fc.constantFrom(
    `Not ${l}.`,
    `It is not ${l}.`,
    `It is not a ${l} question.`,
    `This sub-question is not ${l}; it gives context.`,
    `It isn't ${l}.`,
    `This is not a ${l} one, it is central to the main question.`,
    `Definitely not **${l}**.`,
    `The answer is not ${l}.`,
  );
const around = fc.array(
  fc.constantFrom(
    "The sub-question asks about the causes.",
    "It is central to the main question.",
    "Some readers would ask it later.",
    "The text mentions the year.",
    "",
  ),
  { maxLength: 3 },
);

/** Parsers of one label, with the labels they allow. */
const ONE_LABEL: { name: string; labels: string[]; read: (t: string) => string | undefined }[] = [
  {
    name: "parseSubquestionType",
    labels: ["core", "background", "follow-up"],
    read: (t) => {
      const r = parseSubquestionType(t);
      return r.ok ? r.value : undefined;
    },
  },
  {
    name: "parseLabel",
    labels: ["answered", "unanswered"],
    read: (t) => {
      const r = parseLabel(t, ["answered", "unanswered"]);
      return r.ok ? r.value : undefined;
    },
  },
  {
    name: "parseLabel",
    labels: ["yes", "no", "neutral", "vital", "okay"],
    read: (t) => {
      const r = parseLabel(t, ["yes", "no", "neutral", "vital", "okay"]);
      return r.ok ? r.value : undefined;
    },
  },
  {
    name: "parseCoverageAnswer",
    labels: ["answered"],
    read: (t) => {
      const r = parseCoverageAnswer(t);
      return r.ok && r.value.answered ? "answered" : undefined;
    },
  },
];

Deno.test("property: a denied label is never read as that label", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...ONE_LABEL).chain((p) =>
        fc.tuple(fc.constant(p), fc.constantFrom(...p.labels)).chain(([p, l]) =>
          fc.tuple(fc.constant(p), fc.constant(l), denial(l), around, around, fc.boolean())
        )
      ),
      ([parser, label, denied, before, after, think]) => {
        const text = [...before, denied, ...after].join(" ");
        const got = parser.read(think ? `<think>${label}</think>${text}` : text);
        assert.notEqual(got, label, `${parser.name} read ${label} from ${JSON.stringify(text)}`);
      },
    ),
    RUNS,
  );
});

Deno.test("property: a rating named only as a hypothesis is never read", () => {
  const weighing = (h: number) =>
    fc.constantFrom(
      `A rating of ${h} would require the full list of names`,
      `rating ${h} is too high`,
      `A score of ${h} requires every detail`,
      `I would not rate it a ${h}`,
      `If every member were named, the rating would be ${h}`,
      `While one could argue for a rating of ${h}, the date is missing`,
    );
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 5 }).chain((h) =>
        fc.tuple(
          fc.constant(h),
          weighing(h),
          fc.option(fc.integer({ min: 0, max: 5 }).filter((r) => r !== h)),
          fc.constantFrom("; ", ".\n\n", ". Rating: ", "\n"),
        )
      ),
      ([h, weighed, rating, join]) => {
        const text = rating === null ? `${weighed}.` : `${weighed}${join}${rating}`;
        const got = parseRating(text);
        assert.ok(!got.ok || got.value !== h, `read ${h} from ${JSON.stringify(text)}`);
        if (rating !== null) {
          assert.deepEqual(got, { ok: true, value: rating }, JSON.stringify(text));
        }
      },
    ),
    RUNS,
  );
});

Deno.test("property: a list corrected later is unparsed, never read half-corrected", () => {
  const L = ["support", "partial_support", "not_support"] as const;
  const ORDINAL = ["first", "second", "third", "fourth"];
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...L), { minLength: 2, maxLength: 4 }),
      fc.nat(),
      fc.constantFrom(...L),
      fc.constantFrom("numbered", "json"),
      fc.constantFrom(
        "Correction: the {k} should be {l}",
        "The {k} should be {l}.",
        "Wait, the {k} is {l}.",
      ),
      (labels, at, to, style, form) => {
        const k = at % labels.length;
        const list = style === "json"
          ? JSON.stringify(labels)
          : labels.map((l, i) => `${i + 1}. ${l}`).join("\n");
        const fix = form.replace("{k}", ORDINAL[k]).replace("{l}", to);
        const text = `${list}\n${fix}`;
        const nuggets = labels.map((_, i) => `nugget ${i}`);
        assert.equal(
          parseLabels(text, L, { count: labels.length }).ok,
          false,
          JSON.stringify(text),
        );
        assert.equal(parseWindowLabels(text, L, nuggets).ok, false, JSON.stringify(text));
      },
    ),
    RUNS,
  );
});

Deno.test("property: a list item that denies a label never reads as that label", () => {
  const L = ["vital", "okay"] as const;
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...L), { minLength: 2, maxLength: 4 }),
      fc.nat(),
      fc.constantFrom("not {l}", "{l}? no", "definitely not {l}", "isn't {l}"),
      (labels, at, form) => {
        const k = at % labels.length;
        const lines = labels.map((l, i) => `${i + 1}. ${i === k ? form.replace("{l}", l) : l}`);
        const text = lines.join("\n");
        const nuggets = labels.map((_, i) => `nugget ${i}`);
        for (
          const got of [
            parseLabels(text, L, { count: labels.length }),
            parseWindowLabels(text, L, nuggets),
          ]
        ) {
          assert.ok(!got.ok || got.value[k] !== labels[k], JSON.stringify(text));
        }
      },
    ),
    RUNS,
  );
});
