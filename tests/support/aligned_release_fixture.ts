/**
 * A small generated release in the shape of the CRUX-DUC ratings release: topics,
 * sub-questions and a pooled corpus, a BM25-like run that ranks the whole corpus
 * (so each topic's ranking holds passages of other topics' documents), one JSON
 * ratings document aligned to that run (`{topic: [[r_1..r_n], ...]}`), and a
 * second run ranking passages the ratings never judged for its topic.
 *
 * Shapes it holds on purpose:
 * - passages rated under two topics, with different ratings (every topic ranks
 *   passages of its neighbours' documents, which those neighbours rank too);
 * - a topic (the last) whose own passages never reach rating 3: what it answers
 *   it answers with passages of the previous topic's documents, which that topic
 *   rates 0 or 1;
 * - unparsable ratings (-1).
 *
 * The same seed gives the same files on any machine.
 *
 * @module
 */
import { join } from "node:path";
import { Rng } from "../golden/_rng.ts";

/** The generated release: its files, and the numbers they hold for checking by hand. */
export interface AlignedRelease {
  /**
   * File name -> text: topics.jsonl, subquestions.json, corpus.jsonl, bm25.run,
   * lancer.run, ratings.json, and reports.jsonl (report runs of the human-study
   * shape: a bm25 report on each topic's top 3 and an oracle report).
   */
  files: Record<string, string>;
  /** Topic ids in order. */
  topics: string[];
  /** Sub-question count of each topic. */
  questions: Map<string, number>;
  /** Each run's ranking per topic (rank order). */
  runs: Map<string, Map<string, string[]>>;
  /** Topic -> passage -> its ratings under that topic (the aligned document's lists). */
  ratings: Map<string, Map<string, number[]>>;
}

/** Passages of one topic's documents: 4 documents of 4 passages, `j` counted across the topic. */
function ownPassages(topic: string): string[] {
  return Array.from({ length: 16 }, (_, j) => `${topic}:${Math.floor(j / 4)}#${j}`);
}

/** A rating drawn skewed to 0, with the odd -1. */
function draw(rng: Rng, high: boolean): number {
  if (rng.next() < 0.04) return -1;
  return high ? rng.weighted([60, 14, 10, 7, 5, 4]) : rng.weighted([70, 20, 10]);
}

/**
 * Builds the release (pure).
 *
 * @param seed The seed of the draws.
 * @param count Number of topics (at least 3).
 * @returns Files and numbers.
 */
export function alignedRelease(seed = 35, count = 6): AlignedRelease {
  const rng = new Rng(seed);
  const topics = Array.from({ length: count }, (_, i) => `duc04-test-${i + 1}`);
  const questions = new Map(topics.map((t, i) => [t, 3 + (i % 2)]));
  const last = topics[count - 1];
  const before = topics[count - 2];
  const bm25 = new Map<string, string[]>();
  const lancer = new Map<string, string[]>();
  const ratings = new Map<string, Map<string, number[]>>();
  // Each topic's ranking: 12 of its own passages and 4 foreign ones, two of the
  // next topic's documents and two of the previous one's, all among the 12 own
  // passages their owner ranks (so rated under both).
  const ranked = new Map(topics.map((t) => [t, rng.shuffle(ownPassages(t)).slice(0, 12)]));
  topics.forEach((t, i) => {
    const next = topics[(i + 1) % count];
    const prev = topics[(i + count - 1) % count];
    const foreign = [...ranked.get(next)!.slice(0, 2), ...ranked.get(prev)!.slice(2, 4)];
    const ids = rng.shuffle([...ranked.get(t)!, ...foreign]);
    bm25.set(t, ids);
    const n = questions.get(t)!;
    const own = new Set(ownPassages(t));
    const m = new Map<string, number[]>();
    for (const p of ids) {
      const high = t === last ? !own.has(p) : true;
      m.set(p, Array.from({ length: n }, () => draw(rng, high)));
    }
    if (t === last) {
      // The last topic answers its first sub-question with a passage of the previous
      // topic's documents (whatever the draws gave), never with its own.
      const borrowed = ids.find((p) => p.startsWith(`${before}:`))!;
      m.get(borrowed)![0] = 5;
    }
    ratings.set(t, m);
    // The second run: the topic's 16 passages (4 never rated for it) and three of a
    // topic two further on (rated only under that topic, if at all).
    const far = ownPassages(topics[(i + 2) % count]).slice(0, 3);
    lancer.set(t, rng.shuffle([...ownPassages(t), ...far]));
  });
  // The previous topic rates the passages the last one borrowed 0 or 1.
  for (const p of bm25.get(last)!.filter((p) => p.startsWith(`${before}:`))) {
    const list = ratings.get(before)!.get(p)!;
    list.forEach((_, k) => list[k] = rng.int(0, 1));
  }
  const runText = (name: string, run: Map<string, string[]>) =>
    [...run].flatMap(([t, ids]) =>
      ids.map((p, r) => `${t} Q0 ${p} ${r + 1} ${(40 - r * 1.5).toFixed(2)} ${name}`)
    ).join("\n") + "\n";
  const words = ["river", "storm", "court", "vote", "trade", "fire", "treaty", "strike"];
  const text = (p: string) =>
    Array.from({ length: 6 + rng.int(0, 6) }, () => rng.pick(words)).join(" ")
      .replace(/^./, (c) => c.toUpperCase()) + ` (${p}).`;
  const files: Record<string, string> = {
    "topics.jsonl": topics.map((t) => JSON.stringify({ id: t, request: `What happened in ${t}?` }))
      .join("\n") + "\n",
    "subquestions.json": JSON.stringify(
      Object.fromEntries(
        topics.map((t) => [
          t,
          Array.from({ length: questions.get(t)! }, (_, k) => `Question ${k + 1} of ${t}?`),
        ]),
      ),
    ),
    "corpus.jsonl":
      topics.flatMap((t) => ownPassages(t).map((p) => JSON.stringify({ id: p, contents: text(p) })))
        .join("\n") + "\n",
    "bm25.run": runText("bm25", bm25),
    "lancer.run": runText("lancer", lancer),
    "reports.jsonl": topics.flatMap((t) =>
      ["bm25", "oracle"].map((type) =>
        JSON.stringify({
          qid: t,
          topic: `What happened in ${t}?`,
          questions: JSON.stringify(
            Array.from({ length: questions.get(t)! }, (_, k) => `Question ${k + 1} of ${t}?`),
          ),
          type,
          docids: `[${
            bm25.get(t)!.slice(type === "bm25" ? 0 : 3, 3 + (type === "bm25" ? 0 : 3)).map((p) =>
              `'${p}'`
            ).join(", ")
          }]`,
          report: `The human summary of ${t}.`,
          response: `The ${type} report of ${t}.`,
          k: 3,
        })
      )
    ).join("\n") + "\n",
    "ratings.json": JSON.stringify(
      Object.fromEntries(topics.map((t) => [t, bm25.get(t)!.map((p) => ratings.get(t)!.get(p))])),
    ),
  };
  return { files, topics, questions, runs: new Map([["bm25", bm25], ["lancer", lancer]]), ratings };
}

/**
 * Writes the release's files into `dir`.
 *
 * @param dir A folder.
 * @param release The release (default: {@linkcode alignedRelease}()).
 * @returns The release written.
 */
export async function writeAlignedRelease(
  dir: string,
  release = alignedRelease(),
): Promise<AlignedRelease> {
  for (const [name, text] of Object.entries(release.files)) {
    await Deno.writeTextFile(join(dir, name), text);
  }
  return release;
}

/**
 * The experiment config fields of the release written into `dir` (see
 * {@linkcode writeAlignedRelease}): its dataset with the ratings aligned to
 * `bm25.run`, both runs as retrieval runs read from their files, offline
 * backends and the workspace `dir/ws`. Tests add their name, stages and measures.
 *
 * @param dir The folder the release was written into.
 * @returns The fields, as a config file holds them.
 */
export function alignedReleaseExperiment(dir: string): {
  workspace: string;
  dataset: Record<string, string>;
  backend: "offline";
  retrieve: { name: string; kind: "file"; path: string }[];
} {
  const p = (name: string) => join(dir, name);
  return {
    workspace: p("ws"),
    dataset: {
      source: "crux",
      corpus: p("corpus.jsonl"),
      topics: p("topics.jsonl"),
      subquestions: p("subquestions.json"),
      judgments: p("ratings.json"),
      alignedTo: p("bm25.run"),
    },
    backend: "offline",
    retrieve: [
      { name: "bm25", kind: "file", path: p("bm25.run") },
      { name: "lancer", kind: "file", path: p("lancer.run") },
    ],
  };
}
