/**
 * The rows the measure stages store for a hand-made extract (test fixture):
 * per-topic values and run means (topic `all`) of the conditions' contexts
 * (`contexts(tau=X)`), their runs' rankings (`ranking(tau=X)`) and reports
 * (`report`, with each report's budget rows), computed with the measure stages' own functions, so the tables
 * under test show stored rows as they do on a workspace.
 *
 * @module
 */
import { rankings } from "@lib/construct/mod.ts";
import { reportBudgetRows, reportItemId } from "@lib/judge/mod.ts";
import { coverageScores, CRUX_DEFAULTS, formatMeasure, oracleTokens } from "@lib/metrics/mod.ts";
import { contextMeasure, contextSource, type ContextSpec } from "@lib/pipeline/mod.ts";
import type { StoredMeasure } from "@lib/store/mod.ts";
import type { CruxData } from "../types.ts";
import { resolveConditions } from "../resolve_conditions.ts";
import { answerableSets, dataOracleSets, scoreDataContexts } from "../_scores.ts";
import { CONTEXT_MEASURES, type ContextKey } from "../_scores.ts";

/** `data` with the rows the measure stages would store at each of `taus` (default 3 and 5). */
export function withStoredMeasures(
  data: CruxData,
  opts: { taus?: readonly number[]; w?: number; cutoffs?: readonly (number | "oracle")[] } = {},
): CruxData {
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const plain = { ...data, measures: undefined };
  const conditions = resolveConditions(plain);
  const oracle = dataOracleSets(plain);
  const rows: StoredMeasure[] = [];
  const push = (
    run: string,
    topicId: string,
    measure: string,
    source: string,
    judge: string,
    value: number,
  ) => rows.push({ run, topicId, measure, source, judge, value, topics: null });
  const keys = Object.keys(CONTEXT_MEASURES) as ContextKey[];
  for (const tau of opts.taus ?? [3, 5]) {
    // The contexts the reports were written from, or the top-|P*| of the run.
    const contexts: ContextSpec[] = [];
    for (const c of conditions) {
      if ((c.kind !== "pipeline" && c.kind !== "oracle-context") || !c.generation) continue;
      const own = plain.generations.filter((g) => g.run === c.generation && g.contextIds?.length);
      const have = new Set(own.map((g) => g.topicId));
      for (const g of own) {
        contexts.push({ name: c.generation, topicId: g.topicId, ids: g.contextIds! });
      }
      for (const [topicId, ids] of c.run ? rankings(plain.runs.get(c.run) ?? []) : []) {
        const k = oracle.get(topicId)?.length ?? 0;
        if (!have.has(topicId) && k > 0) {
          contexts.push({ name: c.generation, topicId, ids: ids.slice(0, k) });
        }
      }
    }
    const contextKeys: ContextKey[] = ["covZ", "andcg", "denZ"];
    for (
      const r of scoreDataContexts(plain, contexts, { keys: contextKeys, cutoff: "oracle", tau, w })
    ) {
      const measure = contextMeasure(r.measure as ContextKey, "oracle", w);
      push(r.run, r.topicId, measure, contextSource("contexts", tau), plain.passageJudge, r.value);
    }
    const runs = [
      ...new Set(conditions.flatMap((c) => (c.kind === "pipeline" && c.run ? [c.run] : []))),
    ];
    const ranked: ContextSpec[] = runs.flatMap((run) =>
      [...rankings(plain.runs.get(run) ?? [])].map(([topicId, ids]) => ({
        name: run,
        topicId,
        ids,
      }))
    );
    for (const cutoff of opts.cutoffs ?? CRUX_DEFAULTS.contextCutoffs) {
      for (const r of scoreDataContexts(plain, ranked, { keys, cutoff, tau, w })) {
        const measure = contextMeasure(r.measure as ContextKey, cutoff, w);
        push(r.run, r.topicId, measure, contextSource("ranking", tau), plain.passageJudge, r.value);
      }
    }
    if (!plain.reportJudge) continue;
    const answerable = answerableSets(plain, tau);
    const cov = tau === CRUX_DEFAULTS.tau ? "Cov" : `Cov(tau=${tau})`;
    const den = formatMeasure({ name: "Den", params: { tau, w } });
    for (const g of plain.generations) {
      const ratings = plain.reportRatings.get(reportItemId(g));
      const a = answerable.get(g.topicId);
      if (!ratings || !a?.length) continue;
      const pStar = oracleTokens(oracle.get(g.topicId) ?? [], plain.tokens);
      const s = coverageScores(
        { ratings, answerable: a, tokens: g.tokens ?? 0, oracleTokens: pStar.tokens },
        { tau, w },
      );
      push(g.run, g.topicId, cov, "report", plain.reportJudge, s.coverage!);
      // The report's length beside its Cov(y), when its token count is stored.
      if (g.tokens != null) {
        push(
          g.run,
          g.topicId,
          cov.replace(/^Cov/, "Tokens"),
          "report",
          plain.reportJudge,
          g.tokens,
        );
      }
      if (pStar.missing === undefined) {
        push(g.run, g.topicId, den, "report", plain.reportJudge, s.density!);
      }
    }
  }
  // Run means over every topic with a value (the fixture's topic sets are complete).
  const groups = new Map<string, StoredMeasure[]>();
  for (const r of rows) {
    const k = [r.run, r.measure, r.source, r.judge].join("\u0000");
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  for (const xs of groups.values()) {
    // A mean length only over the whole topic set of the Cov(y) mean beside it.
    const { run, measure, source, judge } = xs[0];
    const cov = groups.get([run, measure.replace(/^Tokens/, "Cov"), source, judge].join("\u0000"));
    if (measure.startsWith("Tokens") && cov?.length !== xs.length) continue;
    const value = xs.reduce((a, r) => a + r.value, 0) / xs.length;
    rows.push({ ...xs[0], topicId: "all", value, topics: xs.length });
  }
  // Each report against its budget, by the report measure stage's own rows.
  if (plain.reportJudge) {
    const budgetRows = reportBudgetRows({
      reports: plain.generations,
      oracle,
      tokens: (id) => plain.tokens.get(id),
      judge: plain.reportJudge,
    });
    rows.push(...budgetRows.map((r) => ({ ...r, topics: null })));
  }
  return { ...data, measures: [...(data.measures ?? []), ...rows] };
}
