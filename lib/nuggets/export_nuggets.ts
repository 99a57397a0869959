/**
 * Workspace nuggets and assignments as TREC RAG (AutoNuggetizer) records.
 *
 * @module
 */
import type { NuggetAssignment, NuggetSet } from "@lib/formats/mod.ts";
import { readNuggetLabels, type WorkspaceLike } from "@lib/store/mod.ts";
import { judgedNuggets, readNuggetRows, topicQueries } from "./_read.ts";

/** What {@linkcode exportNuggets} returns. */
export interface ExportedNuggets {
  /** One set per topic: its kept nuggets, vital first, importance omitted when failed or unlabelled. */
  nuggets: NuggetSet[];
  /** One record per answer with labels by `judge` (when given). */
  assignments: NuggetAssignment[];
}

/**
 * Reads the nuggets of an origin (the kept ones, in the order answers are judged
 * on them) and, when `judge` is given, the assignments of every answer, as the
 * records the TREC RAG writers take ({@linkcode formatNuggets},
 * {@linkcode formatNuggetAssignments}). In assignment records a nugget whose
 * importance failed is written `okay`, as it is scored.
 *
 * @param ws The workspace.
 * @param opts Origin (required), judge, runs.
 * @returns Nugget sets and assignment records.
 * @example
 * ```ts
 * import { exportNuggets } from "@lib/nuggets/mod.ts";
 * import { formatNuggetAssignments } from "@lib/formats/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const { assignments } = await exportNuggets(ws, { origin: "created:offline", judge: "lexical-nuggets" });
 * formatNuggetAssignments(assignments);
 * ```
 */
export async function exportNuggets(
  ws: WorkspaceLike,
  opts: { origin: string; judge?: string; runs?: readonly string[] },
): Promise<ExportedNuggets> {
  const byTopic = await readNuggetRows(ws, opts.origin);
  const queries = await topicQueries(ws);
  const judged = new Map([...byTopic].map(([t, rows]) => [t, judgedNuggets(rows)]));
  const nuggets: NuggetSet[] = [...judged].map(([qid, rows]) => ({
    qid,
    query: queries.get(qid) ?? qid,
    nuggets: rows.map((r) =>
      r.importance === "vital" || r.importance === "okay"
        ? { text: r.text, importance: r.importance }
        : { text: r.text }
    ),
  }));
  const assignments: NuggetAssignment[] = [];
  if (opts.judge !== undefined) {
    const labels = await readNuggetLabels(ws, opts.origin, opts.judge);
    const by = new Map<string, Map<number, string>>();
    for (const l of labels) {
      if (opts.runs && !opts.runs.includes(l.run)) continue;
      const k = `${l.run}\0${l.topicId}`;
      if (!by.has(k)) by.set(k, new Map());
      by.get(k)!.set(Number(l.ordinal), l.label);
    }
    for (const [k, m] of by) {
      const [runId, qid] = k.split("\0");
      assignments.push({
        qid,
        runId,
        nuggets: (judged.get(qid) ?? []).filter((r) => m.has(r.ordinal)).map((r) => ({
          text: r.text,
          importance: r.importance === "vital" ? "vital" : "okay",
          assignment: m.get(r.ordinal) as NuggetAssignment["nuggets"][number]["assignment"],
        })),
      });
    }
  }
  return { nuggets, assignments };
}
