import assert from "node:assert/strict";
import fc from "fast-check";
import { statedList } from "./stated_list.ts";

Deno.test("stated list: numbered or bulleted lines, prose around them, emphasis and quotes removed", () => {
  assert.deepEqual(
    statedList(
      "Here is the updated list:\n\n1. The dam failed in May\n2) **Heavy rain preceded it**\n" +
        '(3) "Engineers had warned of cracks."\n4: Repairs were postponed\n\nLet me know.',
    ),
    [
      "The dam failed in May",
      "Heavy rain preceded it",
      "Engineers had warned of cracks.",
      "Repairs were postponed",
    ],
  );
  assert.deepEqual(statedList("```\n- Who built the dam?\n* When did it fail?\n• Why?\n```"), [
    "Who built the dam?",
    "When did it fail?",
    "Why?",
  ]);
  // Numbers are item markers only with a separator and a space: "1.5 m" is no item.
  assert.equal(statedList("1.5 m of rain fell in a day."), undefined);
  assert.deepEqual(statedList("1. 1.5 m of rain fell in a day."), ["1.5 m of rain fell in a day."]);
});

Deno.test("stated list: anything unclear leaves the list unread", () => {
  for (
    const text of [
      "", // nothing
      "The dam failed because of the rain.", // prose only
      "1. The dam failed\nbecause of the rain\n2. Repairs waited", // an item continued
      "1. The dam failed\n\nWhy it matters:\n2. Repairs waited", // prose between items
      "1. The dam failed\n- Repairs waited", // numbered beside bulleted
      "1. The dam failed\n3. Repairs waited", // a number left out
      "2. The dam failed\n1. Repairs waited", // out of order
      "1. The dam failed\n1. Repairs waited", // a number twice
      "1. **  **", // an empty item
    ]
  ) {
    assert.equal(statedList(text), undefined, JSON.stringify(text));
  }
});

Deno.test("stated list: any items written as a numbered or bulleted list read back exactly (property)", () => {
  const item = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,;'?-]{0,40}[A-Za-z0-9?]$/);
  fc.assert(
    fc.property(
      fc.array(item, { minLength: 1, maxLength: 25 }),
      fc.constantFrom("1.", "1)", "(1)", "-", "*"),
      fc.constantFrom("", "Nuggets:", "Here are the sub-questions.\n"),
      fc.constantFrom("", "\nThat is all.", "\n```"),
      (items, marker, intro, outro) => {
        const lines = items.map((t, i) =>
          marker === "1." ? `${i + 1}. ${t}` : marker === "1)" ? `${i + 1}) ${t}` : marker ===
              "(1)"
            ? `(${i + 1}) ${t}`
            : `${marker} ${t}`
        );
        const got = statedList([intro, ...lines, outro].join("\n"));
        return JSON.stringify(got) === JSON.stringify(items.map((t) => t.trim()));
      },
    ),
  );
});
