// The key point method's stage work: judging a run's answers and measuring KPR.

import {
  checkStatements,
  type EntailmentJudge,
  judgeKeyPoints,
  keyPointCountRows,
  keyPointMeasureRows,
  type KeyPointProblem,
  type QuestionWithDocuments,
  readStoredKeyPoints,
  scoreKeyPoints,
} from "@lib/keypoints/mod.ts";
import { oracleSets } from "@lib/metrics/mod.ts";
import {
  countKeyPointProblems,
  readKeyPointLabels,
  readKeyPointsOfSource,
  readKeyPointStatements,
  readPassages,
  readRunReports,
  readTopics,
  readWorkspaceQrels,
  type WorkspaceLike,
  writeKeyPointLabels,
  writeKeyPointProblems,
  writeKeyPointStatements,
  writeMeasures,
} from "@lib/store/mod.ts";

/** Each topic's request and its oracle passages P* (the documents key points come from). */
export async function oracleQuestions(
  ws: WorkspaceLike,
  opts: { qrels: string; grade: number },
): Promise<QuestionWithDocuments[]> {
  const natural = new Intl.Collator("en", { numeric: true });
  const sets = oracleSets(await readWorkspaceQrels(ws, opts.qrels), { grade: opts.grade });
  const text = new Map(
    [...(await readPassages(ws)).values()].flat().map((p) => [p.passageId, p.text]),
  );
  return (await readTopics(ws)).filter((t) => sets.has(t.topicId)).map((t) => ({
    qid: t.topicId,
    question: t.request ?? t.title ?? "",
    documents: sets.get(t.topicId)!.filter((id) => text.has(id)).sort(natural.compare).map((
      id,
    ) => ({
      docId: id,
      text: text.get(id)!,
    })),
  }));
}

/** Stores problems of a step with the backend that had them. */
export async function storeProblems(
  ws: WorkspaceLike,
  problems: readonly KeyPointProblem[],
  backend: string,
): Promise<void> {
  if (!problems.length) return;
  await writeKeyPointProblems(
    ws,
    problems.map((p) => ({
      step: p.step,
      topicId: p.qid,
      item: p.item,
      status: p.status,
      reason: p.reason,
      raw: p.raw ?? null,
      backend,
    })),
  );
}

/** Judges one generation run's responses against the merged key points and its contexts. */
export async function judgeRun(
  ws: WorkspaceLike,
  run: string,
  opts: {
    source: string;
    entailer: EntailmentJudge;
    supporter?: EntailmentJudge;
    signal?: AbortSignal;
  },
): Promise<string> {
  const { keypoints } = await readStoredKeyPoints(ws, { level: "merged", source: opts.source });
  const gens = await readRunReports(ws, run);
  const have = new Set(keypoints.map((q) => q.qid));
  const responses = gens.filter((g) => have.has(g.topicId)).map((g) => ({
    qid: g.topicId,
    runId: run,
    text: g.text ?? "",
  }));
  const judged = await judgeKeyPoints(keypoints, responses, opts.entailer, { signal: opts.signal });
  await writeKeyPointLabels(
    ws,
    judged.verdicts.map((v) => ({
      run,
      topicId: v.qid,
      keypointId: v.keypointId,
      label: v.label,
      status: v.label === null ? "unusable" : "ok",
      reason: v.reason,
      snippet: v.snippet,
      judge: opts.entailer.name,
      source: opts.source,
    })),
  );
  await storeProblems(ws, judged.problems, opts.entailer.name);
  let statements = 0;
  if (opts.supporter) {
    const text = new Map(
      [...(await readPassages(ws)).values()].flat().map((p) => [p.passageId, p.text]),
    );
    const checked = await checkStatements(
      gens.map((g) => ({
        qid: g.topicId,
        runId: run,
        text: g.text ?? "",
        documents: (g.contextIds ?? []).filter((id) => text.has(id)).map((id) => text.get(id)!),
      })),
      opts.supporter,
      { signal: opts.signal },
    );
    statements = checked.verdicts.length;
    if (statements) {
      await writeKeyPointStatements(
        ws,
        checked.verdicts.map((v) => ({
          run,
          topicId: v.qid,
          ordinal: v.index,
          text: v.text,
          label: v.label,
          supported: v.supported,
          judge: opts.supporter!.name,
        })),
      );
    }
    await storeProblems(ws, checked.problems, opts.supporter.name);
  }
  const yes = judged.verdicts.filter((v) => v.label === "yes").length;
  return `${run}: ${yes} of ${judged.verdicts.length} key points entailed over ${responses.length} responses; ` +
    `${statements} statements checked; ${judged.problems.length} unusable answers (${opts.entailer.name})`;
}

/** Scores the runs from the stored labels and statements into the measure table. */
export async function measureKeyPoints(
  ws: WorkspaceLike,
  opts: { runs: readonly string[]; source: string; judge: string; supportJudge?: string },
): Promise<{ rows: number; missing: string[]; summary: string }> {
  const { keypoints } = await readStoredKeyPoints(ws, { level: "merged", source: opts.source });
  const labels = await readKeyPointLabels(ws, opts.judge, opts.source);
  const statements = opts.supportJudge === undefined
    ? []
    : await readKeyPointStatements(ws, opts.supportJudge);
  // The one rule of `crux keypoints score` too: a key point without a usable
  // label leaves its question, and the run's mean, without a value.
  const scores = scoreKeyPoints(keypoints, labels, { statements, runs: opts.runs });
  const rows = keyPointMeasureRows(scores, { judge: opts.judge, source: opts.source });
  await writeMeasures(ws, rows);
  const missing = scores.flatMap((s) => s.missing.map((q) => `${s.runId}/${q}`));
  const kpr = scores.map((s) =>
    `${s.runId} ${Number.isNaN(s.aggregate.KPR) ? "undefined" : s.aggregate.KPR.toFixed(3)}`
  );
  return { rows: rows.length, missing, summary: `KPR ${kpr.join(", ")}` };
}

/**
 * Counts a source's stored key points, span checks and unusable answers into
 * the measure table (see `keyPointCountRows`): the extraction table's numbers.
 */
export async function measureKeyPointCounts(
  ws: WorkspaceLike,
  source: string,
): Promise<{ rows: number; failed: string[] }> {
  const points = await readKeyPointsOfSource(ws, source);
  const problems = await countKeyPointProblems(ws);
  const rows = keyPointCountRows(points, problems, source);
  await writeMeasures(ws, rows);
  const failed = [...new Set(problems.filter((p) => p.step === "extract").map((p) => p.topicId))]
    .sort();
  return { rows: rows.length, failed };
}
