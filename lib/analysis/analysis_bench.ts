/**
 * Throughput of the analyses on a synthetic workspace extract the size of a
 * CRUX test split slice: 100 topics x 60 passages x 12 sub-questions, four
 * pipelines with top-100 runs, three references.
 * Run: `deno bench -A lib/analysis/analysis_bench.ts`.
 *
 * @module
 */
import type { Generation, Qrel, RunRow } from "@lib/types/mod.ts";
import type { CruxData } from "./types.ts";
import { seededRandom } from "@lib/metrics/mod.ts";
import { mainTable } from "./main_table.ts";
import { thresholdTable } from "./threshold_table.ts";
import { contextSizeTable } from "./context_size_table.ts";
import { metricCorrelations } from "./metric_correlations.ts";
import { topicCoverage } from "./topic_coverage.ts";

function synthetic(topicsN = 100, passagesN = 60, questionsN = 12): CruxData {
  const random = seededRandom(1);
  const rating = () => (random() < 0.75 ? 0 : Math.floor(random() * 6));
  const topics = Array.from(
    { length: topicsN },
    (_, t) => ({ topicId: `t${t}`, dataset: t % 2 ? "duc" : "mn" }),
  );
  const questions = new Map(
    topics.map((t) => [
      t.topicId,
      Array.from({ length: questionsN }, (_, q) => `${t.topicId}#q${q + 1}`),
    ]),
  );
  const passageRatings = [];
  const qrels: Qrel[] = [];
  const tokens = new Map<string, number>();
  const runs = new Map<string, RunRow[]>();
  const generations: Generation[] = [];
  const reportRatings = new Map<string, Map<string, number>>();
  const pipelines = ["p1", "p2", "p3", "p4"];
  for (const p of pipelines) runs.set(p, []);
  for (const { topicId } of topics) {
    const ids = Array.from({ length: passagesN }, (_, j) => `${topicId}:${j % 8}#${j}`);
    for (const id of ids) {
      passageRatings.push({ topicId, itemId: id, ratings: questions.get(topicId)!.map(rating) });
      tokens.set(id, 100 + Math.floor(random() * 100));
      qrels.push({ topicId, docId: id, grade: random() < 0.1 ? 3 : 2 });
    }
    const oracle = qrels.filter((q) => q.topicId === topicId && q.grade === 3).map((q) => q.docId);
    for (const p of pipelines) {
      const ranked = [...ids].sort(() => random() - 0.5).slice(0, 100);
      ranked.forEach((docId, i) =>
        runs.get(p)!.push({ run: p, topicId, docId, rank: i + 1, score: 100 - i })
      );
      generations.push({
        run: `rag-${p}`,
        topicId,
        text: "",
        condition: "rag",
        contextIds: ranked.slice(0, oracle.length),
        tokens: 500,
      });
    }
    generations.push({ run: "direct", topicId, text: "", condition: "direct", tokens: 400 });
    generations.push({
      run: "oracle-context",
      topicId,
      text: "",
      condition: "oracle-context",
      contextIds: oracle,
      tokens: 500,
    });
    generations.push({
      run: "oracle-result",
      topicId,
      text: "",
      condition: "oracle-result",
      tokens: 300,
    });
    for (const g of generations.filter((x) => x.topicId === topicId)) {
      const item = g.run === "oracle-result" ? `${topicId}:report` : `${topicId}:report:${g.run}`;
      reportRatings.set(item, new Map(questions.get(topicId)!.map((q) => [q, rating()])));
    }
  }
  return {
    topics,
    questions,
    passageRatings,
    qrels,
    tokens,
    runs,
    generations,
    reportRatings,
    passageJudge: "lexical",
    reportJudge: "lexical",
    backends: { judge: "lexical", generator: "extractive" },
  };
}

const data = synthetic();

Deno.bench("mainTable (100 topics, 4 pipelines + 3 references)", () => {
  mainTable(data);
});
Deno.bench("thresholdTable (tau 3 vs 5)", () => {
  thresholdTable(data);
});
Deno.bench("contextSizeTable (|P*|, 10, 20; 6 measures)", () => {
  contextSizeTable(data);
});
Deno.bench("metricCorrelations (4 runs x 100 topics x 16 samples = 6400 contexts)", () => {
  metricCorrelations(data);
});
Deno.bench("topicCoverage", () => {
  topicCoverage(data);
});
