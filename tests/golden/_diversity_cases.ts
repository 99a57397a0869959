/**
 * alpha-nDCG fixtures in diversity-qrels format (`topic subtopic doc 0|1`):
 * the two published reference cases and a seeded random set.
 *
 * @module
 */
import { Rng } from "./_rng.ts";

/** One diversity qrels file with the runs to score against it. */
export interface DiversityFixture {
  name: string;
  description: string;
  qrels: string;
  runs: { name: string; text: string }[];
  /** Measures scored for this fixture (workbench measure strings). */
  measures: string[];
}

const lines = (rows: string[]) => rows.join("\n") + "\n";

function randomDiversity(seed: number): { qrels: string; runs: { name: string; text: string }[] } {
  const rng = new Rng(seed);
  const qrels: string[] = [];
  const runs = [[], [], []] as string[][];
  for (let t = 1; t <= 8; t++) {
    const topic = `div${t}`;
    const subtopics = rng.int(3, 6);
    const docs = Array.from(
      { length: 25 },
      (_, i) => (i % 3 === 0 ? `D${rng.int(1, 99)}-${i}` : `doc${i}`),
    );
    const full = t % 2 === 0; // half the topics list every (subtopic, doc) pair, the others only some
    let anyRelevant = false;
    for (let s = 1; s <= subtopics; s++) {
      for (const doc of docs) {
        const rel = rng.next() < 0.18 ? 1 : 0;
        anyRelevant ||= rel === 1;
        if (rel === 1 || full || rng.next() < 0.3) qrels.push(`${topic} ${s} ${doc} ${rel}`);
      }
    }
    if (!anyRelevant) qrels.push(`${topic} 1 ${docs[0]} 1`);
    const candidates = [...docs, "unjudged-1", "unjudged-2", "x9"];
    runs.forEach((run, r) => {
      const ranked = rng.shuffle(candidates).slice(0, r === 2 ? 7 : 20);
      // scores with one decimal: many ties, broken by document id descending
      ranked.forEach((doc, i) =>
        run.push(`${topic} Q0 ${doc} ${i + 1} ${(rng.int(0, 40) / 10).toFixed(1)} r${r}`)
      );
    });
  }
  return {
    qrels: lines(qrels),
    runs: runs.map((run, r) => ({ name: `random_div.r${r}`, text: lines(run) })),
  };
}

/** Every diversity fixture, in a fixed order. */
export function diversityFixtures(): DiversityFixture[] {
  const random = randomDiversity(11);
  return [
    {
      name: "reference_two",
      description: "Published reference: d0 covers subtopics 0 and 1, d1 covers subtopic 0.",
      qrels: lines(["q0 0 d0 1", "q0 1 d0 1", "q0 0 d1 1"]),
      runs: [
        { name: "reference_two.d0", text: lines(["q0 Q0 d0 1 1 only-d0"]) },
        { name: "reference_two.d1", text: lines(["q0 Q0 d1 1 1 only-d1"]) },
      ],
      measures: ["alpha_nDCG@10"],
    },
    {
      name: "reference_abcd",
      description: "Published reference: A->a, B->b, D->b, C->c; run A, D, E, B.",
      qrels: lines(["t 1 A 1", "t 2 B 1", "t 2 D 1", "t 3 C 1"]),
      runs: [{
        name: "reference_abcd.adeb",
        text: lines(["t Q0 A 1 4 adeb", "t Q0 D 2 3 adeb", "t Q0 E 3 2 adeb", "t Q0 B 4 1 adeb"]),
      }],
      measures: ["alpha_nDCG@5"],
    },
    {
      name: "random_div",
      description:
        "Seed 11: 8 topics, 3-6 subtopics, 25 judged documents, tied scores, unjudged documents, a short run.",
      qrels: random.qrels,
      runs: random.runs,
      measures: ["alpha_nDCG@5", "alpha_nDCG@10", "alpha_nDCG@20", "alpha_nDCG(alpha=0.8)@10"],
    },
  ];
}
