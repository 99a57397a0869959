import assert from "node:assert/strict";
import { correlationTable } from "./correlation_table.ts";
import { tableText } from "./table_text.ts";

const PAIRS = [
  { a: "Cov@10", b: "Cov(report)", value: 0.81 },
  { a: "nDCG@10", b: "Cov(report)", value: 0.42 },
  { a: "Cov@10", b: "KPR", value: 0.6 },
];

Deno.test("correlationTable lays out a rows x columns table with nulls for missing pairs", () => {
  const t = correlationTable(PAIRS, { decimals: 2, notes: ["Kendall tau-b over 8 runs"] });
  assert.equal(
    tableText(t),
    [
      "Measure  Cov(report)   KPR",
      "-------  -----------  ----",
      "Cov@10          0.81  0.60",
      "nDCG@10         0.42     -",
      "",
      "Kendall tau-b over 8 runs",
      "",
    ].join("\n"),
  );
});

Deno.test("correlationTable symmetric fills the mirror and the diagonal", () => {
  const t = correlationTable([{ a: "x", b: "y", value: -0.5 }], { symmetric: true });
  assert.deepEqual(t.rows.map((r) => r.values), [{ x: 1, y: -0.5 }, { x: -0.5, y: 1 }]);
});

Deno.test("correlationTable marks the highest value per column when asked", () => {
  const t = correlationTable(PAIRS, { direction: "higher", labels: { "Cov@10": "Cov" } });
  assert.equal(t.rows[0].label, "Cov");
  assert.equal(t.columns[0].direction, "higher");
});

Deno.test("correlationTable rejects conflicting pairs and out-of-range values", () => {
  assert.throws(
    () =>
      correlationTable([{ a: "x", b: "y", value: 0.5 }, { a: "y", b: "x", value: 0.4 }], {
        symmetric: true,
      }),
    { name: "RangeError", message: /pair 2 gives \(y, x\) = 0.4, but it is already 0.5/ },
  );
  assert.throws(() => correlationTable([{ a: "x", b: "y", value: 1.5 }]), {
    name: "RangeError",
    message: /pair 1 \(x, y\) has value 1.5; correlations lie in \[-1, 1\]/,
  });
  assert.throws(() => correlationTable([{ a: "x", b: "y", value: NaN }]), { name: "RangeError" });
});
