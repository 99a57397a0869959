/**
 * The parsers' promise as a property: whatever prose, decoy numbers, ranges,
 * citations and empty lists surround an answer, a parser returns the value the
 * answer states or "unparsed", never another value. Seeded, so a failure
 * reproduces.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  parseFinalScore,
  parseJsonValue,
  parseLabel,
  parseLabels,
  parseRating,
  parseTagged,
  parseVerdict,
} from "@lib/llm/mod.ts";

const RUNS = { numRuns: 400, seed: 18 };

/** Prose that states no rating: counts, item numbers, scales, citations, enumerations. */
const decoy = fc.oneof(
  fc.constantFrom(
    "The context mentions the item.",
    "It does not say why.",
    "Scale used: (0-5).",
    "I read the context carefully",
    "The question asks about the ledger.",
  ),
  fc.integer({ min: 0, max: 9 }).map((n) => `Based on ${n} passages,`),
  fc.integer({ min: 0, max: 9 }).map((n) => `Item number ${n} was moved to shelf ${n + 3}.`),
  fc.integer({ min: 1, max: 9 }).map((n) => `See passage [${n}].`),
  fc.integer({ min: 1, max: 9 }).map((n) => `${n}. The context gives the shelf.`),
  fc.integer({ min: 1, max: 9 }).map((n) => `Q${n}: what happened?`),
);

/** The rating stated in one of the styles models use. */
const statement = (r: number) =>
  fc.constantFrom(
    `Rating: ${r}`,
    `Rating (0-5): ${r}`,
    `**Rating:** ${r}`,
    `the rating is ${r}.`,
    `Score: ${r}/5`,
    `\n${r}\n`,
    `\n**${r}**\n`,
    `I would rate it a ${r}.`,
  );

Deno.test("property: parseRating reads the stated rating or nothing, whatever surrounds it", () => {
  fc.assert(
    fc.property(
      fc.array(decoy, { maxLength: 6 }),
      fc.option(
        fc.integer({ min: 0, max: 5 }).chain((r) => statement(r).map((s) => [r, s] as const)),
      ),
      fc.nat(),
      (prose, stated, at) => {
        const parts: string[] = [...prose];
        if (stated) parts.splice(at % (parts.length + 1), 0, stated[1]);
        const text = parts.join(" ");
        const got = parseRating(text);
        if (got.ok) {
          assert.equal(got.value, stated?.[0], `read ${got.value} from ${JSON.stringify(text)}`);
        } else assert.equal(got.raw, text);
        // A lone statement with decoys around it is always read.
        if (stated && /^\n/.test(stated[1])) assert.ok(got.ok, JSON.stringify(text));
      },
    ),
    RUNS,
  );
});

Deno.test("property: any text at all yields no rating it does not contain", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), (text) => {
      const got = parseRating(text);
      if (got.ok) assert.ok(text.includes(String(got.value)), JSON.stringify(text));
    }),
    RUNS,
  );
});

const pythonRepr = (xs: string[]) =>
  `[${xs.map((x) => `'${x.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`).join(", ")},]`;

const listDecoy = fc.oneof(
  fc.constantFrom(
    "The initial list was [] so I start fresh.",
    "An empty list [] would mean no nuggets.",
    "I checked [the author's note] first.",
    "Nothing in {braces} matters.",
    "Here is the list:",
    "Let me know if you need more.",
  ),
  fc.integer({ min: 1, max: 9 }).map((n) => `As passage [${n}] says,`),
);
const strings = (v: unknown) => (v as unknown[]).every((x) => typeof x === "string");

Deno.test("property: parseJsonValue reads the stated list, never a cited or empty one", () => {
  fc.assert(
    fc.property(
      fc.array(listDecoy, { maxLength: 5 }),
      fc.option(
        fc.tuple(
          fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 4 }),
          fc.constantFrom("json", "python", "fenced"),
        ),
      ),
      fc.nat(),
      (prose, real, at) => {
        const parts: string[] = [...prose];
        if (real) {
          const [list, style] = real;
          const body = style === "python" ? pythonRepr(list) : JSON.stringify(list);
          parts.splice(
            at % (parts.length + 1),
            0,
            style === "fenced" ? `\n\`\`\`json\n${body}\n\`\`\`\n` : body,
          );
        }
        const text = parts.join(" ");
        const got = parseJsonValue(text, "array", { fits: strings });
        if (real) assert.deepEqual(got, { ok: true, value: real[0] }, JSON.stringify(text));
        else if (got.ok) {
          assert.deepEqual(got.value, [], JSON.stringify(text));
          assert.ok(text.includes("[]"));
        }
      },
    ),
    RUNS,
  );
});

const LABELS = ["yes", "no", "neutral"] as const;
const spelled = (l: string) =>
  fc.constantFrom(
    `[${l}]`,
    l,
    `${l}.`,
    `**${l}**`,
    l.toUpperCase(),
    `Label: ${l}`,
    `[${l[0].toUpperCase()}${l.slice(1)}]`,
  );
const labelProse = fc.constantFrom(
  "The response gives the opening year.",
  "It mentions the bridge",
  "but the place differs.",
  "Compare the snippet with the key point:",
  "Maybe the date is implied.",
);

Deno.test("property: parseLabel reads the stated label or nothing", () => {
  fc.assert(
    fc.property(
      fc.array(labelProse, { maxLength: 4 }),
      fc.option(fc.constantFrom(...LABELS).chain((l) => spelled(l).map((s) => [l, s] as const))),
      fc.boolean(),
      (prose, stated, first) => {
        const parts: string[] = [...prose];
        if (stated) {
          // Plain labels are stated on their own line; bracketed ones anywhere.
          const s = stated[1].startsWith("[") ? stated[1] : `\n${stated[1]}\n`;
          if (first) parts.unshift(s);
          else parts.push(s);
        }
        const text = parts.join(" ");
        const got = parseLabel(text, LABELS);
        if (got.ok) assert.equal(got.value, stated?.[0], JSON.stringify(text));
        if (stated && first) assert.ok(got.ok, JSON.stringify(text));
      },
    ),
    RUNS,
  );
});

/** Text from an alphabet rich in brackets, quotes, digits and label words. */
const noisy = fc.array(
  fc.constantFrom(
    "[",
    "]",
    "{",
    "}",
    '"',
    "'",
    ",",
    ":",
    "\\",
    "\n",
    " ",
    "```",
    "**",
    "0",
    "3",
    "-",
    "5",
    "yes",
    "No",
    "rating",
    "score",
    "True",
    "<q>",
    "</q>",
    "a",
    "(0-5)",
  ),
  { maxLength: 80 },
).map((xs) => xs.join(""));

Deno.test("property: on any text every parser returns a value or a failure with that text, never throws", () => {
  const parsers: ((t: string) => { ok: boolean; raw?: string })[] = [
    parseRating,
    (t) => parseJsonValue(t, "array"),
    (t) => parseJsonValue(t, "object"),
    (t) => parseJsonValue(t, "array", { fits: strings }),
    (t) => parseLabel(t, LABELS),
    (t) => parseLabels(t, LABELS),
    (t) => parseVerdict(t, LABELS),
    parseFinalScore,
    (t) => parseTagged(t, "q"),
  ];
  fc.assert(
    fc.property(fc.oneof(noisy, fc.string({ maxLength: 80 })), (text) => {
      for (const parse of parsers) {
        const t0 = performance.now();
        const got = parse(text);
        if (!got.ok) assert.equal(got.raw, text);
        assert.ok(performance.now() - t0 < 200, `slow on ${JSON.stringify(text)}`);
      }
    }),
    { numRuns: 1000, seed: 18 },
  );
  // Long inputs stay fast: 20,000 unmatched or nested brackets.
  for (
    const text of [
      "[".repeat(20_000),
      "[}".repeat(10_000),
      "[".repeat(5000) + "]".repeat(5000),
      "[x] ".repeat(5000),
    ]
  ) {
    const t0 = performance.now();
    for (const parse of parsers) parse(text);
    assert.ok(
      performance.now() - t0 < 2000,
      `slow on ${text.slice(0, 10)}... (${text.length} chars)`,
    );
  }
});
