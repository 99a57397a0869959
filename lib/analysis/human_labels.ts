/**
 * Human labels of report coverage, overlaid on the per-topic coverage figure.
 *
 * Format (JSONL, one object per line; both kinds may be mixed):
 * - a coverage label: `{"topicId": "t1", "condition": "bm25", "coverage": 0.6}`
 *   (`run` is accepted instead of `condition`; coverage in [0, 1]);
 * - a CRUX-style judgment of a report: `{"id": "t1", "docid": "t1:report:bm25",
 *   "rating": [5, 0, 3]}` (or `example_id`/`pid`), one 0-5 rating per
 *   sub-question in question order (-1 = unparseable, counted 0). The item id
 *   `{topic}:report` is the human summary (condition `oracle-result`),
 *   `{topic}:report:{run}` a generated report. Coverage is then the share of
 *   the topic's answerable sub-questions rated >= tau, computed by the analysis.
 *
 * @module
 */
import { InputError, type Problem, readTextFile } from "@lib/formats/mod.ts";

/** One human label: a coverage value, or ratings to turn into coverage. */
export interface HumanLabel {
  topicId: string;
  /** Condition (pipeline generation run, or `oracle-result` for the human summary). */
  condition: string;
  /** Coverage in [0, 1], when given directly. */
  coverage?: number;
  /**
   * Ratings 0-5 per sub-question in order, when given as a judgment; null for a
   * sub-question the annotator did not rate (a label file rates every one).
   */
  ratings?: (number | null)[];
}

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * Parses human labels (format in the module doc). Every malformed line is
 * reported with its file and line number.
 *
 * @param text JSONL text.
 * @param opts `file` names the input in error messages.
 * @returns The labels in file order.
 * @throws {InputError} Listing every line that is not a coverage label or a report judgment.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const labels = parseHumanLabels('{"topicId":"t1","run":"bm25","coverage":0.5}\n', { file: "h.jsonl" });
 * assert.deepEqual(labels, [{ topicId: "t1", condition: "bm25", coverage: 0.5 }]);
 * ```
 */
export function parseHumanLabels(text: string, opts: { file: string }): HumanLabel[] {
  const out: HumanLabel[] = [];
  const problems: Problem[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const at = (message: string, field?: string) =>
      problems.push({ file: opts.file, line: i + 1, message, ...(field ? { field } : {}) });
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line);
    } catch {
      return at("not valid JSON; expected one object per line");
    }
    if (rec === null || typeof rec !== "object" || Array.isArray(rec)) {
      return at("expected a JSON object");
    }
    if ("coverage" in rec) {
      const topicId = str(rec.topicId);
      const condition = str(rec.condition) ?? str(rec.run);
      const c = rec.coverage;
      if (!topicId) return at("missing topic id", "topicId");
      if (!condition) return at('missing "condition" (or "run")', "condition");
      if (typeof c !== "number" || !(c >= 0 && c <= 1)) {
        return at(`coverage ${JSON.stringify(c)} is not a number in [0, 1]`, "coverage");
      }
      return void out.push({ topicId, condition, coverage: c });
    }
    const topicId = str(rec.id) ?? str(rec.example_id);
    const item = str(rec.docid) ?? str(rec.pid);
    const ratings = rec.rating;
    if (!topicId || !item) {
      return at('expected {"topicId", "condition", "coverage"} or {"id", "docid", "rating"}');
    }
    const prefix = `${topicId}:report`;
    if (item !== prefix && !item.startsWith(prefix + ":")) {
      return at(`"${item}" is not a report id ("${prefix}" or "${prefix}:{run}")`, "docid");
    }
    if (
      !Array.isArray(ratings) || !ratings.every((r) => Number.isInteger(r) && r >= -1 && r <= 5)
    ) {
      return at("rating must be a list of integers 0-5 (or -1)", "rating");
    }
    out.push({
      topicId,
      condition: item === prefix ? "oracle-result" : item.slice(prefix.length + 1),
      ratings: [...ratings],
    });
  });
  if (problems.length) throw new InputError(problems.slice(0, 50), problems.length);
  return out;
}

/**
 * Reads human labels from a JSONL file (see {@linkcode parseHumanLabels}).
 *
 * @param path The file.
 * @returns The labels in file order.
 * @throws {InputError} On malformed lines; {Deno.errors.NotFound} when the file is missing.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = await Deno.makeTempDir(); // e.g. datasets/my_study
 * await Deno.writeTextFile(`${dir}/human_coverage.jsonl`, '{"topicId":"t1","run":"bm25","coverage":0.5}\n');
 * const labels = await readHumanLabels(`${dir}/human_coverage.jsonl`);
 * assert.equal(labels.length, 1);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readHumanLabels(path: string): Promise<HumanLabel[]> {
  return parseHumanLabels(await readTextFile(path), { file: path });
}
