import assert from "node:assert/strict";
import fc from "fast-check";
import { statedLabels } from "./stated_labels.ts";
import { parseLabels } from "./parse_labels.ts";

const A = ["support", "partial_support", "not_support"] as const;

const numbered = (text: string) => {
  const read = statedLabels(text, A);
  return read?.numbered ? [...read.numbered] : read;
};

Deno.test("stated labels: numbered lines in the forms models write, notes set apart", () => {
  const text = [
    "Here are my judgments:",
    "",
    "1. Support",
    "2) **partial support** - the date is given, not the place",
    "3: not_support (the answer never mentions it)",
    "Nugget 4: No Support",
    "(5) support",
    "[6] support: stated in the second paragraph",
    "#7 not-support",
    "Item 8 - support",
    "9. The glacier retreated 2 km: partial_support",
    "",
    "Let me know if you need more detail.",
  ].join("\n");
  assert.deepEqual(numbered(text), [
    [1, "support"],
    [2, "partial_support"],
    [3, "not_support"],
    [4, "not_support"],
    [5, "support"],
    [6, "support"],
    [7, "not_support"],
    [8, "support"],
    [9, "partial_support"],
  ]);
});

Deno.test("stated labels: bulleted or lone lines in order, bracketed bare words", () => {
  assert.deepEqual(statedLabels("- support\n- not_support\n* Partial Support", A), {
    ordered: ["support", "not_support", "partial_support"],
  });
  assert.deepEqual(statedLabels("Labels:\nsupport\nnot support\n\nsupport.", A), {
    ordered: ["support", "not_support", "support"],
  });
  assert.deepEqual(statedLabels("```\nsupport\nsupport\n```", A), {
    ordered: ["support", "support"],
  });
  assert.deepEqual(statedLabels("The labels are [support, not_support, Support].", A), {
    ordered: ["support", "not_support", "support"],
  });
  // The same bracketed list twice is read; two different ones are not.
  assert.deepEqual(statedLabels("[support, support]\nSo: [support, support]", A), {
    ordered: ["support", "support"],
  });
  assert.equal(statedLabels("[support, support] or maybe [support, not_support]", A), undefined);
  // A bracketed number is no list of labels.
  assert.equal(statedLabels("See nugget [1].", A), undefined);
});

Deno.test("stated labels: anything unclear makes the whole answer unread", () => {
  for (
    const text of [
      "I think all of them are supported.",
      "support, not_support, support", // prose, no brackets
      "1. support\n2. it is hard to say\n3. support", // a numbered line without a label
      "- support\n- The answer mentions dust.\n- support", // a bullet without a label
      "1. support\n2. not_support\n1. support", // a number twice
      "1. support\n2. not_support\nsupport", // numbered beside unnumbered
      "1. support - or rather not_support", // another label named on the line
      "1. support - not_support",
      "1. The answer is partial: not support, or partial support", // two after the item
      "1. supported\n2. supported", // not an allowed spelling
      "",
    ]
  ) {
    assert.equal(statedLabels(text, A), undefined, JSON.stringify(text));
  }
  // The same label before and after a separator is one statement, and a note may name
  // the label again in other words.
  assert.deepEqual(numbered("1. support: support"), [[1, "support"]]);
  assert.deepEqual(numbered("1. not_support - the answer does not support it"), [
    [1, "not_support"],
  ]);
  const vo = ["vital", "okay"] as const;
  assert.deepEqual([...statedLabels("1. okay - useful, not vital", vo)!.numbered!], [[1, "okay"]]);
  assert.equal(statedLabels("1. okay - or maybe vital", vo), undefined);
});

Deno.test("parseLabels reads stated labels when there is no JSON list, numbered 1..n only", () => {
  assert.deepEqual(parseLabels("2. okay\n1. vital", ["vital", "okay"], { count: 2 }), {
    ok: true,
    value: ["vital", "okay"],
  });
  // A gap in the numbers, or the wrong count: unparsed, with the raw text.
  const gap = parseLabels("1. vital\n3. okay", ["vital", "okay"]);
  assert.deepEqual(gap, { ok: false, raw: "1. vital\n3. okay", reason: "no JSON array found" });
  assert.deepEqual(parseLabels("- vital\n- okay", ["vital", "okay"], { count: 3 }), {
    ok: false,
    raw: "- vital\n- okay",
    reason: "expected 3 labels, found 2",
  });
  // A JSON list wins over lines, even a list that then fails the count.
  assert.deepEqual(parseLabels('["vital"]\n1. vital\n2. okay', ["vital", "okay"], { count: 2 }), {
    ok: false,
    raw: '["vital"]\n1. vital\n2. okay',
    reason: "expected 2 labels, found 1",
  });
});

Deno.test("stated labels: any labels written in any of the line forms read back exactly (property)", () => {
  const label = fc.constantFrom(...A);
  const spelling = (l: string) =>
    fc.constantFrom(
      l,
      l.toUpperCase(),
      l.replace("_", " "),
      `**${l}**`,
      l.replace("not_", "no "),
    );
  const note = fc.constantFrom("", " - as stated", ": the answer says so", " (second paragraph)");
  const prose = fc.constantFrom(
    "Here are the labels.",
    "Let me know if anything is unclear.",
    "",
    "Judgments follow:",
  );
  fc.assert(
    fc.property(
      fc.array(label, { minLength: 1, maxLength: 12 }),
      fc.constantFrom("num.", "num)", "nugget", "bullet"),
      prose,
      prose,
      (labels, form, intro, outro) => {
        const lines = labels.map((l, i) => {
          const s = l === "not_support" && i % 2 ? "no support" : l;
          const body = `${i % 3 === 0 ? s.toUpperCase() : s}${
            [" - as stated", "", ": yes"][i % 3]
          }`;
          return form === "num."
            ? `${i + 1}. ${body}`
            : form === "num)"
            ? `${i + 1}) ${body}`
            : form === "nugget"
            ? `Nugget ${i + 1}: ${body}`
            : `- ${body}`;
        });
        const text = [intro, ...lines, outro].join("\n");
        const read = statedLabels(text, A);
        const got = read?.ordered ?? [...(read?.numbered?.values() ?? [])];
        return JSON.stringify(got) === JSON.stringify(labels);
      },
    ),
  );
  // Every spelling and note on its own reads as its label.
  fc.assert(
    fc.property(label.chain((l) => fc.tuple(fc.constant(l), spelling(l), note)), ([l, s, n]) => {
      const read = statedLabels(`1. ${s}${n}`, A);
      return read?.numbered?.get(1) === l;
    }),
  );
});
