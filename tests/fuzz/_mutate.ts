/** Random mutations of valid input files, for the fuzz tests. */
import fc from "fast-check";

/** One change to a file's bytes. */
export type Mutation =
  | { kind: "truncate"; at: number }
  | { kind: "flip"; at: number; bit: number }
  | { kind: "duplicate-line"; at: number }
  | { kind: "delete-line"; at: number }
  | { kind: "number"; at: number; value: string }
  | { kind: "bad-utf8"; at: number; bytes: readonly number[] }
  | { kind: "bom" };

/** Arbitrary lists of one to four mutations. */
export const mutations: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.record({
      kind: fc.constant("flip" as const),
      at: fc.nat(),
      bit: fc.integer({ min: 0, max: 7 }),
    }),
    fc.record({ kind: fc.constant("duplicate-line" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("delete-line" as const), at: fc.nat() }),
    fc.record({
      kind: fc.constant("number" as const),
      at: fc.nat(),
      value: fc.constantFrom(
        "1e400",
        "-1e400",
        "99999999999",
        "1.5",
        "-0",
        "1e-400",
        "9007199254740993",
      ),
    }),
    fc.record({
      kind: fc.constant("bad-utf8" as const),
      at: fc.nat(),
      bytes: fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf]),
    }),
    fc.constant({ kind: "bom" as const }),
  ),
  { minLength: 1, maxLength: 4 },
);

function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  bytes.forEach((b, i) => b === 10 && i + 1 < bytes.length && starts.push(i + 1));
  return starts;
}

function lineAt(bytes: Uint8Array, at: number): [number, number] {
  const starts = lineStarts(bytes);
  const s = starts[at % starts.length];
  let e = bytes.indexOf(10, s);
  e = e < 0 ? bytes.length : e + 1;
  return [s, e];
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

/** Applies the mutations in order. */
export function mutate(input: Uint8Array, list: readonly Mutation[]): Uint8Array {
  let bytes = input;
  for (const m of list) {
    const n = bytes.length;
    switch (m.kind) {
      case "truncate":
        bytes = bytes.slice(0, n ? m.at % n : 0);
        break;
      case "flip":
        if (n) {
          bytes = bytes.slice();
          bytes[m.at % n] ^= 1 << m.bit;
        }
        break;
      case "duplicate-line": {
        const [s, e] = lineAt(bytes, m.at);
        const line = bytes.slice(s, e);
        bytes = concat(
          bytes.slice(0, e),
          line[line.length - 1] === 10 ? line : concat(Uint8Array.of(10), line),
          bytes.slice(e),
        );
        break;
      }
      case "delete-line": {
        const [s, e] = lineAt(bytes, m.at);
        bytes = concat(bytes.slice(0, s), bytes.slice(e));
        break;
      }
      case "number": {
        const text = new TextDecoder("latin1").decode(bytes);
        const runs = [...text.matchAll(/\d+(\.\d+)?/g)];
        if (!runs.length) break;
        const r = runs[m.at % runs.length];
        const value = new TextEncoder().encode(m.value);
        bytes = concat(bytes.slice(0, r.index!), value, bytes.slice(r.index! + r[0].length));
        break;
      }
      case "bad-utf8": {
        const at = n ? m.at % n : 0;
        bytes = concat(bytes.slice(0, at), Uint8Array.from(m.bytes), bytes.slice(at));
        break;
      }
      case "bom":
        bytes = concat(Uint8Array.of(0xef, 0xbb, 0xbf), bytes);
        break;
    }
  }
  return bytes;
}
