/**
 * A seeded synthetic CRUX-format dataset: topics with 10-15 sub-questions,
 * 30-60 passages each, a rating matrix skewed to 0 (with some -1), a pooled
 * corpus and three TREC runs, in the CRUX release file layouts.
 *
 * @module
 */
import { Rng } from "./_rng.ts";

/** One synthetic topic. */
export interface CruxTopic {
  topicId: string;
  request: string;
  questions: string[];
  passages: { id: string; text: string }[];
  /** ratings[p][q] for passage p (in passage order) and question q; -1 = unparseable. */
  ratings: number[][];
}

/** The dataset's files, keyed by path relative to the fixture folder. */
export type FileSet = Record<string, string>;

function vocabulary(rng: Rng): string[] {
  const c = "bcdfghklmnprstvz";
  const v = "aeiou";
  const words = new Set<string>();
  while (words.size < 500) {
    const syllables = rng.int(1, 3);
    let w = "";
    for (let i = 0; i < syllables; i++) w += rng.pick([...c]) + rng.pick([...v]);
    words.add(w);
  }
  return [...words];
}

function sentence(rng: Rng, vocab: string[], min: number, max: number): string {
  return Array.from({ length: rng.int(min, max) }, () => rng.pick(vocab)).join(" ");
}

function ratingsFor(rng: Rng, passages: number, questions: number, topicNo: number): number[][] {
  const m = Array.from({ length: passages }, () => new Array<number>(questions).fill(0));
  for (let q = 0; q < questions; q++) {
    const answerable = !(topicNo % 3 === 1 && q >= questions - 2); // some topics keep 2 unanswerable questions
    const answers = rng.int(1, 3);
    for (let k = 0; k < answers && answerable; k++) {
      m[rng.int(0, passages - 1)][q] = 3 + rng.weighted([0.45, 0.3, 0.25]);
    }
    for (let p = 0; p < passages; p++) {
      if (m[p][q] === 0 && rng.next() < 0.14) m[p][q] = 1 + rng.weighted([0.6, 0.4]);
      if (rng.next() < 0.006) m[p][q] = -1;
    }
  }
  // Greedy ties: some topics repeat a passage's ratings on a later passage,
  // chosen so that ordinal order and byte order of the ids disagree (#9 vs #10).
  if (topicNo % 5 !== 0 && passages > 12) m[10] = [...m[9]];
  if (topicNo % 4 === 2) m[passages - 1] = [...m[2]];
  return m;
}

/** Builds the synthetic topics (pure; the same seed gives the same dataset). */
export function cruxTopics(seed: number, count: number): CruxTopic[] {
  const rng = new Rng(seed);
  const vocab = vocabulary(rng);
  const topics: CruxTopic[] = [];
  for (let t = 0; t < count; t++) {
    const topicId = t < count - 5
      ? `multi_news-test-${100 + t * 7}`
      : `duc04-test-${t - count + 6}`;
    const nq = rng.int(10, 15);
    const total = rng.int(30, 60);
    const passages: { id: string; text: string }[] = [];
    let doc = 0;
    while (passages.length < total) {
      const n = Math.min(rng.int(3, 8), total - passages.length);
      for (let i = 0; i < n; i++) {
        passages.push({
          id: `${topicId}:${doc}#${passages.length}`,
          text: sentence(rng, vocab, 10, 40) + ".",
        });
      }
      doc++;
    }
    const questions = Array.from({ length: nq }, () => `What ${sentence(rng, vocab, 3, 7)}?`);
    topics.push({
      topicId,
      request: `Write a report on ${sentence(rng, vocab, 8, 14)}.`,
      questions,
      passages,
      ratings: ratingsFor(rng, passages.length, nq, t),
    });
  }
  return topics;
}

function runFor(rng: Rng, topics: CruxTopic[], name: string, depth: number, noise: number): string {
  const out: string[] = [];
  topics.forEach((topic, t) => {
    if (name === "short" && t === 3) return; // a topic missing from one run
    const scored = topic.passages.map((p, i) => {
      const signal = topic.ratings[i].reduce((a, r) => a + Math.max(r, 0), 0);
      return { id: p.id, score: Math.round((signal + rng.next() * noise) * 2) / 2 };
    });
    const other = topics[(t + 1) % topics.length].passages[0].id;
    scored.push({ id: other, score: 4 }, { id: `${topic.topicId}:90#900`, score: 3.5 });
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : -1));
    scored.slice(0, depth).forEach((s, i) =>
      out.push(`${topic.topicId} Q0 ${s.id} ${i + 1} ${s.score} ${name}`)
    );
  });
  return out.join("\n") + "\n";
}

/** Renders the dataset files: corpus, judgments (both variants), topics, sub-questions and runs. */
export function cruxFiles(seed: number, count: number): FileSet {
  const topics = cruxTopics(seed, count);
  const rng = new Rng(seed + 1);
  const corpus: string[] = [];
  const judgments: string[] = [];
  for (const topic of topics) {
    const older = topic.topicId.startsWith("duc04");
    topic.passages.forEach((p, i) => {
      corpus.push(
        JSON.stringify(i % 9 === 4 ? { id: p.id, text: p.text } : { id: p.id, contents: p.text }),
      );
      const rating = topic.ratings[i];
      judgments.push(
        JSON.stringify(
          older
            ? { example_id: topic.topicId, pid: p.id, rating }
            : { id: topic.topicId, docid: p.id, rating },
        ),
      );
    });
    corpus.push(
      JSON.stringify({
        id: `${topic.topicId}:90#900`,
        contents: "an unjudged passage of this topic with nine words",
      }),
    );
  }
  const subquestions = Object.fromEntries(
    topics.map((t) => [t.topicId, t.questions.map((q, i) => `${i + 1}. ${q}`)]),
  );
  return {
    "corpus.jsonl": corpus.join("\n") + "\n",
    "judgments.jsonl": judgments.join("\n") + "\n",
    "topics.jsonl":
      topics.map((t) => JSON.stringify({ id: t.topicId, request: t.request })).join("\n") + "\n",
    "subquestions.json": JSON.stringify(subquestions, null, 1) + "\n",
    "runs/bm25.run": runFor(rng, topics, "bm25", 20, 6),
    "runs/dense.run": runFor(rng, topics, "dense", 20, 12),
    "runs/short.run": runFor(rng, topics, "short", 8, 3),
  };
}
