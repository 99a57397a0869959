import assert from "node:assert/strict";
import { join } from "node:path";
import { inputError, inputErrorOf } from "./_testing.ts";
import { ducClusterKey, parseDucDocuments, readDucClusters, readDucSummaries } from "./duc.ts";

const DATA = new URL("./testdata/duc/", import.meta.url).pathname;

Deno.test("readDucClusters reads one cluster per folder, articles in file-name order", async () => {
  const clusters = await readDucClusters(join(DATA, "docs"));
  assert.deepEqual(clusters.map((c) => [c.cluster, c.documents.map((d) => d.docNo)]), [
    ["d30001t", ["APW19981102.0002", "XIN19981101.0001"]],
    ["d30002t", ["NYT19981103.0003"]],
  ]);
  assert.deepEqual(clusters[0].documents[1], {
    docNo: "XIN19981101.0001",
    headline: "Harbor bridge in Lorvath reopens",
    text:
      'The harbor bridge of the fictional town of Lorvath reopened on Sunday after six weeks of repairs.\n\nEngineers said the new cables would last "for decades" & more.',
  });
  assert.equal(
    clusters[0].documents[0].text,
    "Traffic returned to the Lorvath bridge.\n\nFerry operators reported fewer passengers.",
  );
});

Deno.test("readDucSummaries matches model files to clusters and ignores other files", async () => {
  assert.deepEqual(await readDucSummaries(join(DATA, "models")), [
    { cluster: "d30001", assessor: "A", text: "Lorvath reopened its harbor bridge." },
    {
      cluster: "d30001",
      assessor: "B",
      text: "The Lorvath bridge reopened after repairs. Ferries lost passengers.",
    },
    { cluster: "d30002", assessor: "C", text: "An orchard festival drew visitors." },
  ]);
  assert.equal(ducClusterKey("d30001t"), ducClusterKey("D30001"));
});

Deno.test("parseDucDocuments reports records without DOCNO or TEXT, with their line", () => {
  const text = "<DOC>\n<DOCNO> A1 </DOCNO>\n</DOC>\n<DOC>\n<TEXT>x</TEXT>\n</DOC>\n";
  assert.equal(
    inputError(() => parseDucDocuments(text, { file: "f" })).message,
    "f:1: TEXT: missing; every <DOC> needs a <TEXT> element\nf:4: DOCNO: missing or empty; every <DOC> needs a <DOCNO>",
  );
  assert.match(
    inputError(() => parseDucDocuments("plain text", { file: "f" })).message,
    /no <DOC> record/,
  );
});

Deno.test("DUC readers name empty or missing folders", async () => {
  const empty = await Deno.makeTempDir();
  assert.match((await inputErrorOf(readDucClusters(empty))).message, /no cluster folder/);
  assert.match(
    (await inputErrorOf(readDucSummaries(empty))).message,
    /no summary file named like D30001\.M\.100\.T\.A/,
  );
  await assert.rejects(() => readDucClusters(join(empty, "nope")), /no such file/);
});

Deno.test("readDucClusters: a repeated article is dropped and counted, another article under its DOCNO names both places", async () => {
  const dir = await Deno.makeTempDir();
  const doc = (no: string, text: string) =>
    `<DOC>\n<DOCNO> ${no} </DOCNO>\n<TEXT>${text}</TEXT>\n</DOC>\n`;
  await Deno.mkdir(join(dir, "d1"));
  await Deno.writeTextFile(join(dir, "d1", "a"), doc("X1", "One.") + doc("X2", "Two."));
  // File b repeats X1 exactly (its second <DOC> starts on line 5).
  await Deno.writeTextFile(join(dir, "d1", "b"), doc("X3", "Three.") + doc("X1", "One."));
  let dropped = -1;
  const [cluster] = await readDucClusters(dir, { onDuplicates: (n) => dropped = n });
  assert.deepEqual(cluster.documents.map((d) => d.docNo), ["X1", "X2", "X3"]);
  assert.equal(dropped, 1);
  await Deno.writeTextFile(join(dir, "d1", "b"), doc("X3", "Three.") + doc("X1", "Other."));
  const error = await inputErrorOf(readDucClusters(dir));
  assert.deepEqual(error.problems.map((p) => [p.file, p.line, p.field]), [
    [join(dir, "d1", "b"), 5, "DOCNO"],
  ]);
  assert.equal(
    error.problems[0].message,
    `document "X1" is already on ${join(dir, "d1", "a")}:1 with other content`,
  );
});
