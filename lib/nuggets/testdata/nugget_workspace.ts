/** Test fixture: a workspace with made-up topics, passages, CRUX qrels and answers of two runs. */
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";

const FACTS = [
  "The comet Halley returns to the inner solar system every 76 years",
  "Comet tails point away from the sun because of solar wind pressure",
  "A comet nucleus is made of ice, dust and frozen gases",
  "The Rosetta probe landed Philae on comet 67P in November 2014",
  "Comets come from the Oort cloud and the Kuiper belt",
  "Sunlight heats the nucleus and releases gas forming the coma",
  "Astronomers predicted the Hale-Bopp return with orbital mechanics",
  "The Giotto spacecraft photographed the Halley nucleus in 1986",
  "Meteor showers happen when Earth crosses comet debris trails",
  "Short-period comets orbit the sun in less than 200 years",
  "Comet dust contains organic molecules such as glycine",
  "The Deep Impact mission struck comet Tempel 1 with a copper impactor",
];

/**
 * Opens a fresh workspace holding topic `t1` (12 passages graded 3 or 2, one
 * redundant passage graded 1), topic `t2` (3 passages), topic `t3` (no qrels) and
 * answers of runs `rag` and `direct` to t1, t2 and t3.
 */
export async function nuggetWorkspace(): Promise<{ ws: Workspace; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "crux-nuggets-" });
  const ws = await openWorkspace(dir);
  await ws.upsert("topics", [
    { topicId: "t1", request: "What are comets made of and how are they studied?" },
    { topicId: "t2", request: "Why do volcanoes erupt?" },
    { topicId: "t3", request: "Unjudged topic" },
  ]);
  const passages = [
    ...FACTS.map((f, i) => ({
      passageId: `t1:${i}#${i}`,
      topicId: "t1",
      docId: `t1:${i}`,
      text: `${f}. Scientists at several observatories describe it in detail.`,
    })),
    { passageId: "t1:12#12", topicId: "t1", docId: "t1:12", text: "Redundant comet passage here." },
    ...[
      "Magma rises because it is less dense than rock",
      "Gas pressure builds up under a volcano",
      "Eruptions can be explosive or effusive",
    ]
      .map((f, i) => ({
        passageId: `t2:${i}#${i}`,
        topicId: "t2",
        docId: `t2:${i}`,
        text: `${f}.`,
      })),
  ];
  await ws.upsert("passages", passages);
  await ws.upsert("qrels", [
    ...FACTS.map((_, i) => ({
      name: "crux_pr",
      topicId: "t1",
      subtopic: "0",
      docId: `t1:${i}#${i}`,
      grade: i % 3 ? 2 : 3,
    })),
    { name: "crux_pr", topicId: "t1", subtopic: "0", docId: "t1:12#12", grade: 1 },
    ...[0, 1, 2].map((i) => ({
      name: "crux_pr",
      topicId: "t2",
      subtopic: "0",
      docId: `t2:${i}#${i}`,
      grade: 3,
    })),
  ]);
  await ws.upsert("generations", [
    { run: "rag", topicId: "t1", text: FACTS.slice(0, 6).join(". ") + ".", condition: "rag" },
    {
      run: "rag",
      topicId: "t2",
      text: "Magma rises because it is less dense. Gas pressure builds up.",
      condition: "rag",
    },
    { run: "rag", topicId: "t3", text: "Nothing to judge.", condition: "rag" },
    { run: "direct", topicId: "t1", text: "Comets are icy bodies.", condition: "direct" },
    { run: "direct", topicId: "t2", text: "Volcanoes erupt.", condition: "direct" },
  ]);
  return { ws, dir };
}
