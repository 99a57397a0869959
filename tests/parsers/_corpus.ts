/**
 * The answer corpus's files (tests/parsers/answers/*.json) and the parser each
 * names, called with the file's (or the case's) arguments: shared by the corpus
 * test and the reasoning property tests.
 */
import { join } from "node:path";
import {
  parseFinalScore,
  parseJsonValue,
  parseLabel,
  parseLabels,
  parseRating,
  type ParseResult,
  parseTagged,
  parseVerdict,
} from "@lib/llm/mod.ts";
import { parseEntailment, parseExtraction, parseMerge } from "@lib/keypoints/mod.ts";
import { parseCoverageAnswer, parseSubquestionType } from "@lib/subq/mod.ts";
import { parsePermutation } from "@lib/retrieval/mod.ts";
import { parseNuggetList, parseWindowLabels } from "@lib/nuggets/_parse_window.ts";

const strings = (v: unknown) => (v as unknown[]).every((x) => typeof x === "string");

/** The parser each corpus file names, called with its (or the case's) arguments. */
export const PARSERS: Record<
  string,
  (text: string, args: Record<string, unknown>) => ParseResult<unknown>
> = {
  parseRating: (t) => parseRating(t),
  parseFinalScore: (t) => parseFinalScore(t),
  parseLabel: (t, a) => parseLabel(t, a.allowed as string[]),
  parseLabels: (t, a) => parseLabels(t, a.allowed as string[], { count: a.count as number }),
  parseVerdict: (t, a) => parseVerdict(t, a.allowed as string[]),
  parseEntailment: (t) => parseEntailment(t),
  parseJsonValue: (t, a) =>
    parseJsonValue(t, a.kind as "array" | "object", {
      fits: a.fits === "strings" ? strings : undefined,
    }),
  parseExtraction: (t) => parseExtraction(t),
  parseMerge: (t, a) => parseMerge(t, a.n as number),
  parseTagged: (t, a) => parseTagged(t, a.tag as string),
  parseSubquestionType: (t) => parseSubquestionType(t),
  parseCoverageAnswer: (t) => parseCoverageAnswer(t),
  // The window's order (positions from 0); an answer stating no single ranking is unparsed.
  parsePermutation: (t, a) => {
    const p = parsePermutation(t, a.n as number);
    return p.parsed ? { ok: true, value: p.order } : { ok: false, raw: t, reason: "no ranking" };
  },
  parseWindowLabels: (t, a) => parseWindowLabels(t, a.allowed as string[], a.nuggets as string[]),
  parseNuggetList: (t, a) => parseNuggetList(t, a.max as number),
};

/** The corpus folder. */
export const ANSWERS_DIR = new URL("./answers/", import.meta.url).pathname;

/** The corpus files' names, sorted. */
export const CORPUS_FILES = [...Deno.readDirSync(ANSWERS_DIR)].map((e) => e.name)
  .filter((n) => n.endsWith(".json")).sort();

/** One corpus file, parsed. */
export function readCorpusFile<T>(name: string): T {
  return JSON.parse(Deno.readTextFileSync(join(ANSWERS_DIR, name))) as T;
}
