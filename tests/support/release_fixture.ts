/**
 * A release-format experiment of any number of topics: the 20 topics of
 * tests/golden/crux/fixtures repeated under new ids (copy k of topic
 * `multi_news-test-100` is `multi_news-test-100-k`, its passages and run lines
 * renamed alike), with the two imported runs (BM25 and dense), and a config
 * running every method with the offline backends. The fixture's passages are
 * lower-case sentences; here each starts with a capital, as released text does,
 * so the offline nugget backend (which takes clauses that open a sentence)
 * creates nuggets and the nugget tables have rows.
 */
import { join } from "node:path";

const fixtures = new URL("../golden/crux/fixtures/", import.meta.url).pathname;

/** Text whose sentences each open with a capital letter. */
const sentenceCase = (text: string) =>
  text.replace(/(^|[.!?]\s+)([a-z])/g, (_, before, c) => before + c.toUpperCase());

/**
 * Write the fixture files and `release.json` into `dir`.
 *
 * @param dir An empty folder.
 * @param topics Number of topics (copies of the 20 fixture topics, in order).
 * @returns The config's path.
 */
export async function writeReleaseFixture(dir: string, topics = 50): Promise<string> {
  const ids = (await Deno.readTextFile(join(fixtures, "topics.jsonl"))).trim().split("\n")
    .map((l) => JSON.parse(l).id as string);
  const copies = Array.from({ length: topics }, (_, i) => ({
    from: ids[i % ids.length],
    to: i < ids.length
      ? ids[i % ids.length]
      : `${ids[i % ids.length]}-${Math.floor(i / ids.length)}`,
  }));
  // Every occurrence of the topic id (as a field or as the start of a passage id).
  const rename = (text: string, from: string, to: string) =>
    from === to ? text : text.replace(new RegExp(`${from}(?!\\d)`, "g"), to);
  const lines = async (name: string) =>
    (await Deno.readTextFile(join(fixtures, name))).trim().split("\n");
  const byTopic = (all: string[], key: (l: string) => string) => {
    const m = new Map<string, string[]>();
    for (const l of all) m.set(key(l), [...(m.get(key(l)) ?? []), l]);
    return m;
  };
  const topicOf = (l: string) => l.match(/(?:multi_news|duc04)-test-\d+/)?.[0] ?? "";
  const write = async (name: string, src: Map<string, string[]>) => {
    await Deno.writeTextFile(
      join(dir, name),
      copies.flatMap((c) => (src.get(c.from) ?? []).map((l) => rename(l, c.from, c.to)))
        .join("\n") + "\n",
    );
  };
  await write("topics.jsonl", byTopic(await lines("topics.jsonl"), topicOf));
  const corpus = (await lines("corpus.jsonl")).map((l) => {
    const p = JSON.parse(l);
    for (const k of ["contents", "text"]) if (typeof p[k] === "string") p[k] = sentenceCase(p[k]);
    return JSON.stringify(p);
  });
  await write("corpus.jsonl", byTopic(corpus, topicOf));
  await write("judgments.jsonl", byTopic(await lines("judgments.jsonl"), topicOf));
  await write("crux_qrels_pr.txt", byTopic(await lines("crux_qrels_pr.txt"), topicOf));
  for (const run of ["bm25", "dense"]) {
    await write(`${run}.run`, byTopic(await lines(`runs/${run}.run`), topicOf));
  }
  const subq = JSON.parse(await Deno.readTextFile(join(fixtures, "subquestions.json")));
  await Deno.writeTextFile(
    join(dir, "subquestions.json"),
    JSON.stringify(Object.fromEntries(copies.map((c) => [c.to, subq[c.from]]))),
  );
  const config = join(dir, "release.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      name: "release",
      dataset: {
        source: "crux",
        corpus: join(dir, "corpus.jsonl"),
        topics: join(dir, "topics.jsonl"),
        judgments: join(dir, "judgments.jsonl"),
        subquestions: join(dir, "subquestions.json"),
      },
      backend: "offline",
      retrieve: [
        { name: "bm25", kind: "file", path: join(dir, "bm25.run") },
        { name: "dense", kind: "file", path: join(dir, "dense.run") },
      ],
      generate: ["rag", "direct", "oracle"],
      nuggets: {},
      keypoints: {},
      subq: { n: 20, variants: [], validation: 0.5, seed: 42 },
      compare: { minRuns: 3 },
      analysis: { correlation: { samples: 4, size: 5, depth: 20, seed: 1 } },
    }),
  );
  return config;
}
