/** Sentence boundary detection shared by `splitSentences` and `chunkText`. */

/** Abbreviations that never end a sentence (titles and `No.` before a number). */
const TITLES = new Set(
  ("mr mrs ms dr prof sr jr st gen gov sen rep lt col capt sgt cmdr adm maj rev hon " +
    "pres supt no nos vol fig vs mt ft messrs mme mlle jan feb mar apr jun jul aug " +
    "sep sept oct nov dec approx dept univ ave blvd").split(" "),
);

/** Abbreviations that end a sentence only when a typical sentence opener follows. */
const SOMETIMES = new Set(["inc", "co", "corp", "ltd", "bros", "etc", "jr", "sr"]);

/** Words that typically open a sentence (checked after an ambiguous abbreviation). */
const OPENERS = new Set(
  ("the a an he she it they we i you in on at but and this that these those its his " +
    "her their our after as when while if there some many officials police however").split(" "),
);

const CANDIDATE = /([.!?]+)(["'”’)\]]*)(\s+)/g;
const PARAGRAPH = /\n[ \t\r]*\n/;
const OPENING = /^["'“‘(\[]*[\p{Lu}\p{Nd}]/u;

function endsSentence(text: string, dot: number, terminator: string, after: string): boolean {
  if (!OPENING.test(after)) return false;
  if (terminator !== ".") return true;
  const before = text.slice(Math.max(0, dot - 40), dot);
  const word = (/(\S+)$/.exec(before)?.[1] ?? "").replace(/^["'“‘(\[]+/, "").toLowerCase();
  if (word === "") return true;
  if (/^\p{L}$/u.test(word)) return false; // an initial: "J. Smith"
  if (TITLES.has(word) && !SOMETIMES.has(word)) return false;
  const ambiguous = SOMETIMES.has(word) || /^(\p{L}\.)+\p{L}$/u.test(word);
  if (!ambiguous) return true;
  const next = /^["'“‘(\[]*([\p{L}]+)/u.exec(after)?.[1]?.toLowerCase() ?? "";
  return OPENERS.has(next);
}

/** Returns `[start, end)` spans of the sentences of `text`, trimmed, in order. */
export function sentenceSpans(text: string): Array<[number, number]> {
  const cuts: number[] = [0];
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    const end = m.index + m[1].length + m[2].length;
    const whitespace = m[3];
    const after = text.slice(end + whitespace.length, end + whitespace.length + 40);
    const terminator = m[1].includes("!") || m[1].includes("?") ? "!" : ".";
    if (PARAGRAPH.test(whitespace) || endsSentence(text, m.index, terminator, after)) {
      cuts.push(end);
    }
  }
  // Paragraph breaks without final punctuation (headlines, list items).
  const para = /\n[ \t\r]*\n/g;
  for (let m = para.exec(text); m !== null; m = para.exec(text)) cuts.push(m.index);
  cuts.push(text.length);
  cuts.sort((x, y) => x - y);
  const spans: Array<[number, number]> = [];
  for (let k = 0; k + 1 < cuts.length; k++) {
    let s = cuts[k];
    let e = cuts[k + 1];
    while (s < e && /\s/.test(text[s])) s++;
    while (e > s && /\s/.test(text[e - 1])) e--;
    if (e > s) spans.push([s, e]);
  }
  return spans;
}
