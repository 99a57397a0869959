/**
 * `exportAnnotations`: a task's labels in the release formats, one text per
 * annotator: CRUX human-study report labels (answerability), CRUX passage labels
 * (passages), nugget assignments (nuggets) and pairwise preferences (preference) as
 * JSONL; typed sub-question decompositions (types) as one JSON list.
 *
 * @module
 */
import { join } from "node:path";
import {
  openWorkspace,
  readAnnotationLabels,
  readAnnotationTask,
  readItemTexts,
  type StoredLabel,
  type Workspace,
  WorkspaceStorageError,
} from "@lib/store/mod.ts";

/** What {@linkcode exportAnnotations} gives. */
export interface AnnotationExport {
  /** Annotator -> JSONL text (one line per report, passage or pair). */
  files: Map<string, string>;
  /** Lines written per annotator. */
  lines: Map<string, number>;
  /** What was left out and why (e.g. a report with sub-questions still unanswered). */
  leftOut: string[];
}

const round = (x: number) => Math.round(x * 10000) / 10000;

/**
 * Exports the labels of a task, one JSONL text per annotator, in the formats
 * `crux agreement` reads (answerability, passages) or FORMATS.md names (nugget
 * assignments; preferences in [-1, 1], positive preferring the answer shown as A).
 * A report whose sub-questions (or nuggets) are not all answered by an annotator is
 * left out of that annotator's file and named in `leftOut`. Report labels carry the
 * topic as `id`, or `{run}_{topic}` when the task shows a topic in several runs.
 *
 * @param ws The workspace.
 * @param task The task kind.
 * @returns The texts per annotator and what was left out.
 * @throws {RangeError} When no such task is stored.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { createAnnotationTask, exportAnnotations } from "@lib/serve/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await ws.upsert("generations", [{ run: "rag", topicId: "sample-01", text: "A report." }]);
 * await createAnnotationTask(ws, { task: "answerability", annotators: ["a", "b"], perCondition: 1 });
 * const { files, leftOut } = await exportAnnotations(ws, "answerability");
 * // nobody has labelled yet: an empty file per annotator, and no partly labelled report
 * assert.deepEqual([...files.values()], ["", ""]);
 * assert.deepEqual(leftOut, []);
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function exportAnnotations(ws: Workspace, task: string): Promise<AnnotationExport> {
  const { items, annotators } = await readAnnotationTask(ws, task);
  if (annotators.length === 0) {
    throw new RangeError(`No "${task}" annotation task in workspace "${ws.dir}"; create one first`);
  }
  // Report ids: the topic alone when every topic is shown in one run only; else, as
  // the CRUX release names a run's report, "{run}_{topic}" (one line per report).
  const runsOf = new Map<string, Set<string>>();
  for (const i of items) {
    if (i.run) runsOf.set(i.topicId, (runsOf.get(i.topicId) ?? new Set()).add(i.run));
  }
  const qualified = [...runsOf.values()].some((r) => r.size > 1);
  const reportId = (l: StoredLabel) => qualified ? `${l.run}_${l.topicId}` : l.topicId;
  const unitSize = new Map<string, number>();
  for (const i of items) unitSize.set(i.unit, (unitSize.get(i.unit) ?? 0) + 1);
  const labels = await readAnnotationLabels(ws, task);
  const out: AnnotationExport = { files: new Map(), lines: new Map(), leftOut: [] };
  const texts = new Map<string, Awaited<ReturnType<typeof readItemTexts>>>();
  const textsOf = async (l: StoredLabel) => {
    const key = `${l.run ?? ""}\0${l.runB ?? ""}\0${l.topicId}\0${l.passageId ?? ""}`;
    if (!texts.has(key)) texts.set(key, await readItemTexts(ws, l));
    return texts.get(key)!;
  };
  for (const annotator of annotators) {
    const mine = labels.filter((l) => l.annotator === annotator);
    const lines: unknown[] = [];
    const byUnit = Map.groupBy(mine, (l) => l.unit);
    for (const [unit, ls] of byUnit) {
      const first = ls[0];
      if (ls.length < unitSize.get(unit)!) {
        out.leftOut.push(
          `${annotator}: topic ${first.topicId} (item ${first.itemId}), ${ls.length} of ` +
            `${unitSize.get(unit)} answered`,
        );
        continue;
      }
      const t = await textsOf(first);
      if (task === "answerability") {
        const order = new Map(t.subquestions.map((q, i) => [q.questionId, i]));
        const sorted = [...ls].sort((a, b) =>
          order.get(a.questionId!)! - order.get(b.questionId!)!
        );
        const values = sorted.map((l) => Number(l.label));
        const spans: Record<string, string> = {};
        for (const l of sorted) {
          spans[t.subquestions[order.get(l.questionId!)!].text] = l.span ?? "";
        }
        lines.push({
          id: reportId(first),
          question_based_nugget: spans,
          answerability: values,
          coverage: round(values.filter((v) => v === 1).length / values.length),
        });
      } else if (task === "passages") {
        const given: Record<string, number> = JSON.parse(first.label);
        const relevances: Record<string, number> = {};
        t.subquestions.forEach((q, i) => relevances[String(i)] = given[q.questionId] ?? -1);
        lines.push({ id: first.topicId, document: first.passageId, relevances, rationales: {} });
      } else if (task === "types") {
        const order = new Map(t.subquestions.map((q, i) => [q.questionId, i]));
        const sorted = [...ls].sort((a, b) =>
          order.get(a.questionId!)! - order.get(b.questionId!)!
        );
        lines.push({
          question: t.request ?? first.topicId,
          sub_questions_with_types: sorted.map((l) => ({
            sub_question: t.subquestions[order.get(l.questionId!)!]?.text ?? l.questionId,
            type: l.label,
          })),
        });
      } else if (task === "nuggets") {
        const nuggets = [];
        for (const l of [...ls].sort((a, b) => a.ordinal! - b.ordinal!)) {
          const n = await readItemTexts(ws, l);
          nuggets.push({
            text: n.nugget ?? "",
            importance: n.nuggetImportance ?? "",
            assignment: l.label,
          });
        }
        lines.push({ qid: first.topicId, run_id: first.run, nuggets });
      } else {
        lines.push({
          question: t.request ?? "",
          answer_a: t.report ?? "",
          answer_b: t.reportB ?? "",
          preference: first.label === "A" ? 1 : first.label === "B" ? -1 : 0,
          id: first.topicId,
          run_a: first.run,
          run_b: first.runB,
        });
      }
    }
    out.files.set(
      annotator,
      // Typed decompositions are one JSON list per annotator (FORMATS.md), the rest JSONL.
      task === "types"
        ? lines.length ? `[\n${lines.map((l) => JSON.stringify(l)).join(",\n")}\n]\n` : ""
        : lines.map((l) => JSON.stringify(l) + "\n").join(""),
    );
    out.lines.set(annotator, lines.length);
  }
  return out;
}

/** A workspace opened for reading by {@linkcode openForExport}. */
export interface ExportSource {
  ws: Workspace;
  /** True when a running process held the workspace and a snapshot copy is read. */
  snapshot: boolean;
  /** Closes the workspace (and removes the snapshot). */
  close(): Promise<void>;
}

const FILES = ["workspace.duckdb", "workspace.duckdb.wal"];

async function fileStamp(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const f of FILES) {
    try {
      const st = await Deno.stat(join(dir, f));
      parts.push(`${f}:${st.size}:${st.mtime?.getTime()}`);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return parts.join(",");
}

/**
 * Opens a workspace to read its labels, also while `crux serve --annotate` holds
 * it: read-only when no other process does; when one holds the lock, a snapshot
 * copy of the database and its write-ahead log (every committed label), taken
 * again when either file changed during the copy, opened privately and removed
 * on close.
 *
 * @param dir The workspace folder.
 * @returns The workspace, whether it is a snapshot, and `close`.
 * @throws {Deno.errors.NotFound} Without a workspace; the storage error when the
 *   files keep changing or the copy cannot be read.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openWorkspace } from "@lib/store/mod.ts";
 * import { openForExport } from "@lib/serve/mod.ts";
 * const dir = await Deno.makeTempDir();
 * (await openWorkspace(dir)).close();
 * const source = await openForExport(dir);
 * assert.equal(source.snapshot, false); // nobody else holds it
 * await source.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openForExport(dir: string): Promise<ExportSource> {
  try {
    const ws = await openWorkspace(dir, { readOnly: true });
    return { ws, snapshot: false, close: () => Promise.resolve(ws.close()) };
  } catch (error) {
    if (!(error instanceof WorkspaceStorageError) || error.fault !== "locked") throw error;
    let lastError: unknown = error;
    for (let attempt = 0; attempt < 5; attempt++) {
      const copy = await Deno.makeTempDir({ prefix: "crux-export-" });
      const remove = () => Deno.remove(copy, { recursive: true }).catch(() => {});
      try {
        const before = await fileStamp(dir);
        for (const f of FILES) {
          await Deno.copyFile(join(dir, f), join(copy, f)).catch((e) => {
            if (!(e instanceof Deno.errors.NotFound)) throw e;
          });
        }
        if (before !== await fileStamp(dir)) {
          await remove();
          await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
          continue;
        }
        // Read-write on the private copy, so its write-ahead log is replayed.
        const ws = await openWorkspace(copy);
        return {
          ws,
          snapshot: true,
          close: async () => {
            ws.close();
            await remove();
          },
        };
      } catch (e) {
        lastError = e;
        await remove();
      }
    }
    throw lastError;
  }
}
