import assert from "node:assert/strict";
import { table } from "./table.ts";

Deno.test("table fills defaults and copies its input", () => {
  const spec = { columns: [{ key: "v", label: "V" }], rows: [{ label: "r", values: { v: 1 } }] };
  const t = table(spec);
  assert.equal(t.rowHeader, "Run");
  assert.deepEqual(t.unmarkedGroups, ["reference"]);
  assert.deepEqual(t.notes, []);
  assert.equal(t.columns[0].decimals, 3);
  assert.equal(t.columns[0].direction, "none");
  assert.notEqual(t.rows[0].values, spec.rows[0].values);
  assert.deepEqual(spec.columns[0], { key: "v", label: "V" });
});

Deno.test("table rejects repeated keys, unknown columns, bad cells, decimals and directions", () => {
  assert.throws(
    () => table({ columns: [{ key: "a", label: "A" }, { key: "a", label: "B" }], rows: [] }),
    { name: "TypeError", message: /column 2 \("B"\) repeats the key "a"/ },
  );
  assert.throws(
    () => table({ columns: [{ key: "a", label: "A" }], rows: [{ label: "r", values: { b: 1 } }] }),
    {
      name: "TypeError",
      message: /row 1 \("r"\) has a value for unknown column "b"; known columns: a/,
    },
  );
  assert.throws(
    () =>
      table({
        columns: [{ key: "a", label: "A" }],
        rows: [{ label: "r", values: { a: true as unknown as number } }],
      }),
    { name: "TypeError", message: /row 1 \("r"\) column "a" holds boolean/ },
  );
  assert.throws(
    () => table({ columns: [{ key: "a", label: "A", decimals: 1.5 }], rows: [] }),
    { name: "RangeError", message: /has decimals 1.5; use an integer from 0 to 15/ },
  );
  assert.throws(
    () => table({ columns: [{ key: "a", label: "A", direction: "up" as "higher" }], rows: [] }),
    { name: "RangeError", message: /has direction "up"; use higher, lower or none/ },
  );
  assert.throws(
    () => table({ columns: [{ key: "", label: "A" }], rows: [] }),
    { name: "TypeError", message: /column 1 \("A"\) has an empty key/ },
  );
});
