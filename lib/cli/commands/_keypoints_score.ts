// `crux keypoints score`: KPR (and KPP, KPF with a statements file) from files alone.
import { parseArgs } from "node:util";
import { type Io, UsageError } from "../command.ts";
import {
  InputError,
  readEntailments,
  readKeyPoints,
  readStatementSupport,
} from "@lib/formats/mod.ts";
import {
  KEYPOINT_MEASURES,
  keyPointMeasureRows,
  type RunKeyPointScores,
  scoreKeyPoints,
} from "@lib/keypoints/mod.ts";
import { deleteMeasures, openWorkspace, writeMeasures } from "@lib/store/mod.ts";
import { basename } from "node:path";

const num = (v: number) => (Number.isFinite(v) ? v : null);

export async function score(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      keypoints: { type: "string" },
      entailments: { type: "string" },
      statements: { type: "string" },
      "per-query": { type: "boolean" },
      format: { type: "string" },
      workspace: { type: "string" },
      judge: { type: "string" },
    },
    strict: true,
  });
  if (!values.keypoints || !values.entailments) {
    throw new UsageError("--keypoints FILE and --entailments FILE are required");
  }
  const format = values.format ?? "table";
  if (!["table", "json", "csv"].includes(format)) {
    throw new UsageError(`--format must be table, json or csv, not "${format}"`);
  }
  const dropped = (file: string) => (n: number) =>
    n && io.err(`# ${file}: ${n} identical repeated lines dropped\n`);
  const points = await readKeyPoints(values.keypoints, { onDuplicates: dropped(values.keypoints) });
  const entailments = await readEntailments(values.entailments, {
    onDuplicates: dropped(values.entailments),
  });
  const statements = values.statements
    ? await readStatementSupport(values.statements, { onDuplicates: dropped(values.statements) })
    : [];
  const ids = new Map(points.map((q) => [q.qid, new Set(q.keypoints.map((k) => k.id))]));
  const problems = [];
  for (const e of entailments) {
    const known = ids.get(e.qid);
    const unknown = e.labels.find((l) => !known?.has(l.keypointId));
    if (unknown) {
      problems.push({
        file: values.entailments,
        line: e.line,
        field: "labels",
        message: known
          ? `key point "${unknown.keypointId}" is not a key point of question "${e.qid}" in ${values.keypoints}`
          : `question "${e.qid}" has no key points in ${values.keypoints}`,
      });
    }
  }
  if (problems.length) throw new InputError(problems);
  const runs = [
    ...new Set([...entailments.map((e) => e.runId), ...statements.map((s) => s.runId)]),
  ];
  const results = scoreKeyPoints(
    points,
    entailments.flatMap((e) =>
      e.labels.map((l) => ({
        qid: e.qid,
        runId: e.runId,
        keypointId: l.keypointId,
        label: l.label,
      }))
    ),
    {
      runs,
      statements: statements.flatMap((s) =>
        s.statements.map((x) => ({ qid: s.qid, runId: s.runId, supported: x.supported }))
      ),
    },
  );
  for (const r of results) {
    if (r.missing.length) {
      io.err(
        `# ${r.runId}: ${r.unlabelled} key point(s) without a usable label in ${r.missing.length} ` +
          `question(s) (${r.missing.join(", ")}): those have no KPR and the run no mean\n`,
      );
    }
  }
  const noKp = points.filter((q) => !q.keypoints.length).map((q) => q.qid);
  if (noKp.length) {
    io.err(`# ${noKp.length} question(s) without key points left out of KPR: ${noKp.join(", ")}\n`);
  }
  if (!values.statements) {
    io.err(
      "# KPP and KPF need --statements (the responses' statements checked against their documents)\n",
    );
  }
  if (values.workspace) {
    const source = `file:${basename(values.keypoints)}`;
    const judge = values.judge ?? `file:${basename(values.entailments)}`;
    const ws = await openWorkspace(values.workspace);
    try {
      const rows = keyPointMeasureRows(results, { judge, source });
      // The rows of an earlier scoring under this judge and source go, so none is stale.
      await deleteMeasures(ws, { method: "keypoints", judgeSources: [{ judge, source }] });
      await writeMeasures(ws, rows);
      io.err(
        `# ${rows.length} rows stored in ${values.workspace} (method keypoints, judge ${judge}, source ${source})\n`,
      );
    } finally {
      ws.close();
    }
  }
  const perQuery = values["per-query"] ?? false;
  const agg = (r: RunKeyPointScores) =>
    Object.fromEntries(KEYPOINT_MEASURES.map((m) => [m, num(r.aggregate[m])]));
  const rows = (r: RunKeyPointScores) =>
    r.perQuestion.map((q) => ({
      qid: q.qid,
      ...Object.fromEntries(KEYPOINT_MEASURES.map((m) => [m, num(q[m])])),
    }));
  if (format === "json") {
    const one = (r: RunKeyPointScores) => ({
      aggregate: agg(r),
      topics: r.topics.KPR,
      ...(perQuery ? { perQuery: rows(r) } : {}),
    });
    const json = results.length === 1
      ? one(results[0])
      : { runs: results.map((r) => ({ run_id: r.runId, ...one(r) })) };
    io.out(JSON.stringify(json, null, 2) + "\n");
    return 0;
  }
  const cols = KEYPOINT_MEASURES;
  if (format === "csv") {
    io.out(`run_id,qid,${cols.join(",")}\n`);
    for (const r of results) {
      for (const p of perQuery ? rows(r) : []) {
        io.out(
          `${r.runId},${p.qid},${
            cols.map((c) => (p as Record<string, unknown>)[c] ?? "").join(",")
          }\n`,
        );
      }
      const a = agg(r);
      io.out(`${r.runId},all,${cols.map((c) => a[c] ?? "").join(",")}\n`);
    }
    return 0;
  }
  // Two spaces at least between columns, so the longest header stays apart from its neighbour.
  const cw = Math.max(...cols.map((c) => c.length)) + 2;
  const fmt = (v: unknown) =>
    (v === null || v === undefined ? "-" : (v as number).toFixed(4)).padStart(cw);
  const width = Math.max(
    6,
    ...results.map((r) => r.runId.length + 2),
    ...points.map((q) => q.qid.length + 2),
  );
  io.out(`${"run".padEnd(width)}${cols.map((c) => c.padStart(cw)).join("")}  topics\n`);
  for (const r of results) {
    for (const p of perQuery ? rows(r) : []) {
      io.out(
        `${`  ${p.qid}`.padEnd(width)}${
          cols.map((c) => fmt((p as Record<string, unknown>)[c])).join("")
        }\n`,
      );
    }
    const a = agg(r);
    io.out(
      `${r.runId.padEnd(width)}${cols.map((c) => fmt(a[c])).join("")}  ${
        String(r.topics.KPR).padStart(6)
      }\n`,
    );
  }
  return 0;
}
