import assert from "node:assert/strict";
import { mainTable } from "./main_table.ts";
import { thresholdTable } from "./threshold_table.ts";
import { tinyData } from "./testdata/tiny_data.ts";

Deno.test("main and threshold tables name the conditions without a value", () => {
  const data = tinyData();
  // b's reports were never judged: no Cov(y) or Den(y) for b.
  const reportRatings = new Map([...data.reportRatings].filter(([k]) => !k.endsWith(":b")));
  const main = mainTable({ ...data, reportRatings }).table!.notes!;
  assert.ok(main.includes("No value of Cov(y): b."), main.join("\n"));
  assert.ok(main.includes("No value of Den(y): b."), main.join("\n"));
  // Direct prompting has no context: it is not listed as missing a context value.
  assert.ok(!main.some((n) => n.startsWith("No value of Cov(Z)")), main.join("\n"));
  const th = thresholdTable({ ...data, reportRatings }).table!.notes!;
  assert.ok(th.includes("t = 3: no value of Cov(y): b."), th.join("\n"));
  assert.ok(th.includes("t = 5: no value of Den(y): b."), th.join("\n"));
  // Every value present: no such note.
  assert.ok(!mainTable(data).table!.notes!.some((n) => n.startsWith("No value")));
});
