/**
 * Report runs of the CRUX human-study release: JSONL, one generated report a
 * line, `{"qid", "topic", "questions", "type", "docids", "report", "response",
 * "k"}` where `questions` is a JSON string holding the sub-question list and
 * `docids` a Python-literal string of the context's passage ids in order
 * (`"['t:0#1', 't:2#7']"`); `type` names the run (`oracle`, `bm25`,
 * `dr_rankfirst`), `report` is the human reference summary and `response` the
 * generated report.
 *
 * In a workspace a report of type `oracle` is the oracle context's report (run
 * `oracle-context`); a report of any other type T is the report of the context
 * run T (run `rag-T`, condition `rag`). The human-study labels name a report
 * `{type}_{qid}`, the oracle context's report by the topic id alone;
 * {@linkcode reportLabelTarget} maps such an id to its workspace run and topic.
 *
 * @module
 */
import { parseJsonDocument } from "./_json.ts";
import { splitLines } from "./_lines.ts";
import { Problems, show } from "./_problems.ts";
import { readTextFile } from "./read_text_file.ts";

/** One report of a report-run file. */
export interface ReportRunRecord {
  /** The topic id (`qid`). */
  topicId: string;
  /** The run's name as the file gives it (`type`). */
  type: string;
  /** The context's passage ids, in order (`docids`). */
  contextIds: string[];
  /** The generated report (`response`). */
  response: string;
  /** The human reference summary (`report`), when given. */
  reference?: string;
  /** The sub-questions (`questions`), when given. */
  questions?: string[];
}

/**
 * The workspace run of a report type: `oracle` -> `oracle-context`, T -> `rag-T`
 * (the report of context run T).
 *
 * @param type The report run's `type`.
 * @returns Run, condition and context run.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportRunOf } from "@lib/formats/mod.ts";
 * assert.deepEqual(reportRunOf("bm25"), { run: "rag-bm25", condition: "rag", contextRun: "bm25" });
 * ```
 */
export function reportRunOf(
  type: string,
): { run: string; condition: "rag" | "oracle-context"; contextRun: string | null } {
  return type === "oracle"
    ? { run: "oracle-context", condition: "oracle-context", contextRun: null }
    : { run: `rag-${type}`, condition: "rag", contextRun: type };
}

/**
 * The workspace report a human-study label id names: the topic id alone is the
 * oracle context's report, `{type}_{qid}` the report of run `rag-{type}` (the
 * topic is the longest suffix after an underscore that is a known topic, since
 * both parts may hold underscores, e.g. `dr_rankfirst_multi_news-test-12`).
 *
 * @param id The label's id.
 * @param topics The known topic ids.
 * @returns The run and topic, or undefined when no known topic ends the id.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportLabelTarget } from "@lib/formats/mod.ts";
 * const topics = new Set(["duc04-testb-3"]);
 * assert.deepEqual(reportLabelTarget("dr_rankfirst_duc04-testb-3", topics), { run: "rag-dr_rankfirst", topicId: "duc04-testb-3" });
 * assert.deepEqual(reportLabelTarget("duc04-testb-3", topics), { run: "oracle-context", topicId: "duc04-testb-3" });
 * ```
 */
export function reportLabelTarget(
  id: string,
  topics: ReadonlySet<string>,
): { run: string; topicId: string } | undefined {
  if (topics.has(id)) return { run: "oracle-context", topicId: id };
  for (let i = id.indexOf("_"); i > 0; i = id.indexOf("_", i + 1)) {
    const topicId = id.slice(i + 1);
    if (topics.has(topicId)) return { run: reportRunOf(id.slice(0, i)).run, topicId };
  }
  return undefined;
}

/**
 * Reads the passage ids of a Python list literal of strings (`['a', "b"]`).
 *
 * @param text The literal.
 * @returns The strings, or undefined when it is not such a list.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePythonStringList } from "@lib/formats/mod.ts";
 * assert.deepEqual(parsePythonStringList("['t:0#1', \"t:2#7\"]"), ["t:0#1", "t:2#7"]);
 * ```
 */
export function parsePythonStringList(text: string): string[] | undefined {
  const body = text.trim();
  if (!body.startsWith("[") || !body.endsWith("]")) return undefined;
  const out: string[] = [];
  const item = /\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*(,|$)/y;
  const inner = body.slice(1, -1);
  item.lastIndex = 0;
  while (item.lastIndex < inner.length) {
    const m = item.exec(inner);
    if (!m) return inner.slice(item.lastIndex).trim() === "" ? out : undefined;
    out.push((m[1] ?? m[2]).replace(/\\(.)/g, "$1"));
    if (m[3] === "") break;
  }
  return out;
}

/**
 * Parses a report-run file (see the module comment).
 *
 * @param text The JSONL text.
 * @param opts `file` names it in errors.
 * @returns One record per line, in file order.
 * @throws {InputError} Naming file, line and field of each malformed line.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseReportRunFile } from "@lib/formats/mod.ts";
 * const line = JSON.stringify({ qid: "t", type: "bm25", docids: "['t:0#1']", response: "A report.", report: "A summary." });
 * assert.deepEqual(parseReportRunFile(line, { file: "bm25.jsonl" })[0].contextIds, ["t:0#1"]);
 * ```
 */
export function parseReportRunFile(text: string, opts: { file: string }): ReportRunRecord[] {
  const problems = new Problems(opts.file);
  const out: ReportRunRecord[] = [];
  splitLines(text).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    let obj: Record<string, unknown>;
    try {
      const parsed = JSON.parse(raw);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        problems.add(line, undefined, `expected a JSON object, found ${show(parsed)}`);
        return;
      }
      obj = parsed;
    } catch (error) {
      problems.add(line, undefined, `not JSON: ${(error as Error).message}`);
      return;
    }
    const text = (field: string) => {
      const v = obj[field];
      if (typeof v === "string" || typeof v === "number") return String(v);
      problems.add(line, field, `expected a string, found ${show(v)}`);
      return undefined;
    };
    const topicId = text("qid");
    const type = text("type");
    const response = typeof obj.response === "string" ? obj.response : text("response");
    const docids = obj.docids;
    const contextIds = Array.isArray(docids) && docids.every((d) => typeof d === "string")
      ? docids as string[]
      : typeof docids === "string"
      ? parsePythonStringList(docids)
      : undefined;
    if (contextIds === undefined) {
      problems.add(
        line,
        "docids",
        `expected a list of passage ids (e.g. "['t:0#1', 't:2#7']"), found ${show(docids)}`,
      );
    }
    let questions: string[] | undefined;
    if (typeof obj.questions === "string") {
      try {
        const q = parseJsonDocument(obj.questions, opts.file);
        if (Array.isArray(q) && q.every((x) => typeof x === "string")) questions = q;
      } catch {
        // left out: the sub-questions come from the topic files
      }
    } else if (Array.isArray(obj.questions)) {
      questions = obj.questions.filter((x): x is string => typeof x === "string");
    }
    if (topicId === undefined || type === undefined || response === undefined || !contextIds) {
      return;
    }
    out.push({
      topicId,
      type,
      contextIds,
      response,
      ...(typeof obj.report === "string" ? { reference: obj.report } : {}),
      ...(questions ? { questions } : {}),
    });
  });
  problems.throwIfAny();
  return out;
}

/**
 * Reads a report-run file.
 *
 * @param path The JSONL file.
 * @returns One record per line.
 * @throws {InputError} As {@linkcode parseReportRunFile}.
 * @example
 * ```ts
 * import { readReportRunFile } from "@lib/formats/mod.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/r.jsonl`, JSON.stringify({ qid: "t", type: "bm25", docids: "[]", response: "" }));
 * (await readReportRunFile(`${dir}/r.jsonl`)).length; // 1
 * ```
 */
export async function readReportRunFile(path: string): Promise<ReportRunRecord[]> {
  return parseReportRunFile(await readTextFile(path), { file: path });
}
