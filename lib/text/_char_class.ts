/**
 * Character classes of Unicode word segmentation (UAX #29) as used by the
 * standard tokenizer. ASCII is classified by a table; other BMP characters are
 * classified on first use and memoised.
 */

/** Not part of a word. */
export const OTHER = 1;
/** Letter (ALetter, Hebrew_Letter, Southeast Asian scripts). */
export const LETTER = 2;
/** Decimal digit (Numeric). */
export const DIGIT = 3;
/** Joins letters only (MidLetter), e.g. `:` and `·`. */
export const MID_LETTER = 4;
/** Joins digits only (MidNum), e.g. `,` and `;`. */
export const MID_NUM = 5;
/** Joins letters or digits (MidNumLet and the apostrophe), e.g. `.` `'` `’`. */
export const MID_NUM_LET = 6;
/** Connector punctuation (ExtendNumLet), e.g. `_`. */
export const EXTEND_NUM_LET = 7;
/** Combining mark or format character: attaches to the preceding character. */
export const EXTEND = 8;
/** Katakana: joins with Katakana only. */
export const KATAKANA = 9;
/** Ideograph, Hiragana or emoji: always a token of its own. */
export const SINGLE_CHAR = 10;

const table = new Uint8Array(65536);

for (let c = 0; c < 128; c++) table[c] = OTHER;
for (let c = 0x30; c <= 0x39; c++) table[c] = DIGIT;
for (let c = 0x41; c <= 0x5a; c++) table[c] = LETTER;
for (let c = 0x61; c <= 0x7a; c++) table[c] = LETTER;
table[0x3a] = MID_LETTER; // :
table[0x2c] = MID_NUM; // ,
table[0x3b] = MID_NUM; // ;
table[0x2e] = MID_NUM_LET; // .
table[0x27] = MID_NUM_LET; // '
table[0x5f] = EXTEND_NUM_LET; // _

const EXPLICIT: Record<number, number> = {};
for (const c of [0xb7, 0x387, 0x55f, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]) {
  EXPLICIT[c] = MID_LETTER;
}
for (const c of [0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]) EXPLICIT[c] = MID_NUM_LET;
for (
  const c of [
    0x37e,
    0x589,
    0x60c,
    0x60d,
    0x66c,
    0x7f8,
    0x2044,
    0xfe10,
    0xfe14,
    0xfe50,
    0xfe54,
    0xff0c,
    0xff1b,
  ]
) EXPLICIT[c] = MID_NUM;
for (const c of [0x203f, 0x2040, 0x2054, 0xfe33, 0xfe34, 0xfe4d, 0xfe4e, 0xfe4f, 0xff3f]) {
  EXPLICIT[c] = EXTEND_NUM_LET;
}

// Word-break properties where the script alone misleads.
EXPLICIT[0x3006] = OTHER; // ideographic closing mark
EXPLICIT[0x309b] = KATAKANA; // voiced sound marks
EXPLICIT[0x309c] = KATAKANA;

const RE_SINGLE = /[\p{Script=Han}\p{Script=Hiragana}\p{Extended_Pictographic}]/u;
const RE_KATAKANA = /\p{Script=Katakana}/u;
const RE_LETTER = /[\p{L}\p{Nl}]/u;
const RE_DIGIT = /\p{Nd}/u;
const RE_EXTEND = /[\p{M}\p{Cf}]/u;

/** Classifies a code point (any plane). */
export function classifyCodePoint(cp: number): number {
  if (cp < 65536) {
    const known = table[cp];
    if (known !== 0) return known;
    const cls = classifySlow(cp);
    table[cp] = cls;
    return cls;
  }
  return classifySlow(cp);
}

function classifySlow(cp: number): number {
  const explicit = EXPLICIT[cp];
  if (explicit !== undefined) return explicit;
  const ch = String.fromCodePoint(cp);
  if (RE_SINGLE.test(ch)) return SINGLE_CHAR;
  if (RE_KATAKANA.test(ch)) return KATAKANA;
  if (RE_LETTER.test(ch)) return LETTER;
  if (RE_DIGIT.test(ch)) return DIGIT;
  if (RE_EXTEND.test(ch)) return EXTEND;
  return OTHER;
}
