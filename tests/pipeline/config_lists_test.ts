// Lists of files in an experiment config follow the readers' repeat rule: a
// file listed again is read once; two files stored under one name are refused,
// naming both places.
import assert from "node:assert/strict";
import { parseExperimentConfig } from "@lib/experiment/mod.ts";

const at = (obj: unknown) =>
  parseExperimentConfig(JSON.stringify(obj), { file: "/x/configs/exp.json", root: "/repo" });

const crux = (qrels: string[]) => ({
  name: "d",
  dataset: { source: "crux", corpus: "c.jsonl", topics: "t.jsonl", judgments: "j.jsonl", qrels },
});

Deno.test("config: a qrels file listed twice is read once; two qrels files of one name are refused", () => {
  // "q.txt" and "./q.txt" are the same file: the second is dropped.
  const cfg = at(crux(["q.txt", "div.txt", "./q.txt"]));
  assert.deepEqual(cfg.dataset && "qrels" in cfg.dataset ? cfg.dataset.qrels : undefined, [
    "/x/configs/q.txt",
    "/x/configs/div.txt",
  ]);
  // Both would be stored as qrels "q": the later one is named with the earlier one.
  assert.throws(
    () => at(crux(["q.txt", "../other/q.txt"])),
    (e: Error) => {
      assert.match(e.message, /field "dataset\.qrels\[1\]"/);
      assert.match(
        e.message,
        /"\/x\/other\/q\.txt" has the name "q" of dataset\.qrels\[0\] \("\/x\/configs\/q\.txt"\)/,
      );
      return true;
    },
  );
});

Deno.test("config: a nugget answers file listed twice is read once", () => {
  const cfg = at({ name: "d", nuggets: { answers: ["a.jsonl", "b.jsonl", "a.jsonl"] } });
  const section = (cfg.methods as Record<string, { answers?: string[] }>).nuggets;
  assert.deepEqual(section.answers, ["/x/configs/a.jsonl", "/x/configs/b.jsonl"]);
});
