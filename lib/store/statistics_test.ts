import assert from "node:assert/strict";
import {
  formatStatisticKey,
  openWorkspace,
  parseStatisticKey,
  readCaveats,
  readStatistics,
  writeCaveats,
  writeStatistics,
} from "./mod.ts";

const ref = (run: string, measure = "Cov") => ({ run, source: "report", judge: "j", measure });

Deno.test("statistic keys: one string per key, whatever the parameter order, and back", () => {
  const a = { statistic: "kendall_tau_b", x: [ref("a")], y: [ref("a", "Den")], topicSet: "all" };
  const one = formatStatisticKey({ ...a, params: { w: 0.5, tau: 3 } });
  assert.equal(one, formatStatisticKey({ ...a, params: { tau: 3, w: 0.5 } }));
  assert.deepEqual(parseStatisticKey(one), { ...a, params: { tau: 3, w: 0.5 } });
  assert.throws(() => parseStatisticKey('{"statistic":"mean","topicSet":"all","x":[["a"]]}'), {
    name: "SyntaxError",
    message: /field "x" item 1 is not \[run, source, judge, measure\]/,
  });
});

Deno.test("statistics: the writer replaces every row; absent values keep their reason", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    const mean = { statistic: "mean", x: [ref("a"), ref("b")], topicSet: "all" };
    const tau = { ...mean, statistic: "kendall_tau_b", y: [ref("a", "Den"), ref("b", "Den")] };
    await writeStatistics(ws, [{ key: tau, value: 1, n: 2, reason: "" }]);
    await writeStatistics(ws, [
      { key: mean, value: 0.25, n: 2, reason: "" },
      { key: tau, value: null, n: 0, reason: 'no stored mean of run "b"' },
    ]);
    const rows = await readStatistics(ws);
    assert.deepEqual(rows.map((r) => [r.key.statistic, r.value, r.n, r.reason]), [
      ["kendall_tau_b", null, 0, 'no stored mean of run "b"'],
      ["mean", 0.25, 2, ""],
    ]);
    assert.deepEqual(rows[0].key, { ...tau, params: {} });
    await assert.rejects(
      () =>
        writeStatistics(ws, [
          { key: mean, value: 1, n: 2, reason: "" },
          { key: mean, value: 2, n: 2, reason: "" },
        ]),
      { name: "RangeError", message: /twice/ },
    );
    assert.equal((await readStatistics(ws)).length, 2); // nothing written by the refused call
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("caveats: kept per table in order, replaced table by table", async () => {
  const dir = await Deno.makeTempDir();
  const ws = await openWorkspace(dir);
  try {
    await writeCaveats(ws, "main_table", [{ text: "first" }, { text: "second", row: "bm25" }]);
    await writeCaveats(ws, "threshold_table", [{ text: "other" }]);
    await writeCaveats(ws, "main_table", [{ text: "only", column: "sample:covY" }]);
    assert.deepEqual(await readCaveats(ws, "main_table"), [
      { text: "only", row: "", column: "sample:covY" },
    ]);
    assert.deepEqual(await readCaveats(ws, "threshold_table"), [
      { text: "other", row: "", column: "" },
    ]);
    assert.deepEqual(await readCaveats(ws, "nothing"), []);
  } finally {
    ws.close();
    await Deno.remove(dir, { recursive: true });
  }
});
