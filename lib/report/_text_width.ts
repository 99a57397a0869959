/**
 * Private: text widths from the bundled DejaVu fonts' metrics, so Vega sizes
 * titles, legends and axes by the real glyph advances instead of its headless
 * estimate (0.8 em a character, which leaves wide blank margins).
 *
 * @module
 */
import { fontFiles } from "./_fonts.ts";

/** Advance widths in em by code point, from a TrueType file's cmap (format 4) and hmtx. */
function advances(path: string): Map<number, number> {
  const b = Deno.readFileSync(path);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const tables = new Map<string, number>();
  const n = v.getUint16(4);
  for (let i = 0; i < n; i++) {
    const at = 12 + 16 * i;
    tables.set(String.fromCharCode(...b.subarray(at, at + 4)), v.getUint32(at + 8));
  }
  const head = tables.get("head")!;
  const upem = v.getUint16(head + 18);
  const hhea = tables.get("hhea")!;
  const metrics = v.getUint16(hhea + 34);
  const hmtx = tables.get("hmtx")!;
  const advance = (glyph: number) => v.getUint16(hmtx + 4 * Math.min(glyph, metrics - 1)) / upem;
  const cmap = tables.get("cmap")!;
  let sub = -1;
  for (let i = 0; i < v.getUint16(cmap + 2); i++) {
    const at = cmap + 4 + 8 * i;
    const off = cmap + v.getUint32(at + 4);
    if (v.getUint16(at) === 3 && v.getUint16(at + 2) === 1 && v.getUint16(off) === 4) sub = off;
  }
  const out = new Map<number, number>();
  if (sub < 0) return out;
  const segs = v.getUint16(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + 2 * segs + 2;
  const deltas = starts + 2 * segs;
  const ranges = deltas + 2 * segs;
  for (let s = 0; s < segs; s++) {
    const end = v.getUint16(ends + 2 * s);
    const start = v.getUint16(starts + 2 * s);
    const delta = v.getUint16(deltas + 2 * s);
    const range = v.getUint16(ranges + 2 * s);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let g: number;
      if (range === 0) g = (c + delta) & 0xffff;
      else {
        g = v.getUint16(ranges + 2 * s + range + 2 * (c - start));
        if (g !== 0) g = (g + delta) & 0xffff;
      }
      out.set(c, advance(g));
    }
  }
  return out;
}

let regular: Map<number, number> | undefined;
let bold: Map<number, number> | undefined;

/** Width in px of `text` set in DejaVu Sans at `size` px (bold when `isBold`). */
export function textWidth(text: string, size: number, isBold = false): number {
  if (!regular) {
    const files = fontFiles();
    regular = advances(files.find((f) => f.endsWith("DejaVuSans.ttf"))!);
    bold = advances(files.find((f) => f.endsWith("DejaVuSans-Bold.ttf"))!);
  }
  const table = isBold ? bold! : regular;
  let em = 0;
  for (const ch of text) em += table.get(ch.codePointAt(0)!) ?? 0.6;
  return em * size;
}

/** A Vega `textMetrics.width` function using {@linkcode textWidth}. */
export function vegaTextWidth(
  item: { fontSize?: number; fontWeight?: string | number; text?: unknown },
  text?: unknown,
): number {
  const t = text ?? item.text;
  const s = Array.isArray(t) ? t.join(" ") : t == null ? "" : String(t);
  const w = item.fontWeight;
  const isBold = w === "bold" || (typeof w === "number" && w >= 600) || w === "bolder";
  // 5% slack: the rasteriser's shaping runs slightly wider than the sum of advances.
  return 1.05 * textWidth(s, item.fontSize ?? 11, isBold);
}
