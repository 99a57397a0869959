/**
 * A synthetic evaluation method for tests of the method registry: the word
 * count of each report. One measure stage stores each (run, topic) count and
 * each run's mean through the store's measure writer; its analysis is one
 * table of the stored run means. Its headline is open above and higher is
 * better. Added to a temporary registry, it shows a method needs nothing but
 * its declaration.
 */
import type { MethodDeclaration } from "@lib/methods/mod.ts";
import {
  deleteMeasures,
  measureRow,
  readMeasures,
  readRunReports,
  readStatistics,
  writeMeasures,
} from "@lib/store/mod.ts";
import { table } from "@lib/report/mod.ts";
import { storedStatistic } from "@lib/analysis/mod.ts";

/** Key of the synthetic method: the `method` column and the config section. */
export const WORDS_KEY = "words";

/** Words of a text: maximal runs of non-space characters. */
export function wordCount(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** The word-count method: section `words` (no settings), headline `words`. */
export const WORD_COUNT: MethodDeclaration<Record<string, never>, Record<string, never>> = {
  key: WORDS_KEY,
  label: "Word count",
  headlines: [{
    method: WORDS_KEY,
    measure: "words",
    label: "Words",
    range: [0, null],
    higherIsBetter: true,
  }],
  roles: [],
  backends: () => ({}),
  section: {
    key: WORDS_KEY,
    parse(raw, file) {
      if (raw === undefined || raw === null) return {};
      if (typeof raw !== "object" || Array.isArray(raw) || Object.keys(raw).length) {
        throw new TypeError(`${file}: ${WORDS_KEY}: expected {} (the method has no settings)`);
      }
      return {};
    },
    stages: (_section, ctx) => [{
      id: `measure:${WORDS_KEY}`,
      stage: "measure",
      version: 1,
      params: { runs: ctx.answerRuns },
      deps: [...ctx.answerStages],
      clear: async (ws) => {
        await deleteMeasures(ws, { method: WORDS_KEY });
      },
      run: async (ws) => {
        let n = 0;
        for (const run of ctx.answerRuns) {
          const reports = await readRunReports(ws, run);
          const counted = reports.filter((r) => r.text !== null)
            .map((r) => ({ topicId: r.topicId, value: wordCount(r.text!) }));
          const rows = counted.map((c) =>
            measureRow({ run, measure: "words", method: WORDS_KEY, ...c })
          );
          // A run mean only over every report: a missing text leaves it absent.
          if (counted.length && counted.length === reports.length) {
            rows.push(measureRow({
              run,
              topicId: "all",
              measure: "words",
              method: WORDS_KEY,
              value: counted.reduce((s, c) => s + c.value, 0) / counted.length,
              topics: counted.length,
            }));
          }
          await writeMeasures(ws, rows);
          n += rows.length;
        }
        return `${n} word counts`;
      },
    }],
  },
  analyses: async (ws) => {
    const means = await readMeasures(ws, { method: WORDS_KEY, topicId: "all", hasValue: true });
    // The mean over runs is a statistic: asked of the statistics stage, read from its row.
    const key = {
      statistic: "mean",
      x: means.map((m) => ({ run: m.run, source: m.source, judge: m.judge, measure: m.measure })),
      topicSet: "all",
    };
    const over = storedStatistic({ statistics: await readStatistics(ws) }, key);
    return [{
      name: "word_counts",
      data: means,
      table: table({
        caption: "Words per report (mean over topics)",
        rowHeader: "Run",
        columns: [
          { key: "words", label: "Words", decimals: 1, direction: "higher" },
          { key: "topics", label: "Topics", decimals: 0 },
        ],
        rows: [
          ...means.map((m) => ({ label: m.run, values: { words: m.value, topics: m.topics } })),
          { label: "mean over runs", values: { words: over.value, topics: null } },
        ],
      }),
      statistics: [{ key, x: means.map((m) => m.value) }],
    }];
  },
  tables: ["word_counts"],
  commands: [],
};
