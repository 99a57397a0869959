/** Content terms of questions and texts for the offline backends; private to `@lib/subq`. */
import { analyze, ENGLISH_STOP_WORDS } from "@lib/text/mod.ts";

/** Question words and auxiliaries that carry no content, beyond the analyzer's stop words. */
export const EXTRA_STOP = new Set([
  ...ENGLISH_STOP_WORDS,
  ..."how what when where who whom whose why which did does do done has have had was were is are been being its his her their them they about after before from over more most also would could should can will may might much many any some each other than write report cover including include includes happened said says told according"
    .split(" "),
]);

const STEMMED = new Set([...EXTRA_STOP].flatMap((w) => analyze(w)));

/** Analyzed terms of a text without question words and auxiliaries. */
export function contentTerms(text: string): string[] {
  return analyze(text).filter((t) => !STEMMED.has(t));
}
