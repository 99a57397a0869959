/**
 * Private: direct labels for scatter points that do not collide with each
 * other, with the points, or with the plot's edges.
 *
 * @module
 */
import { textWidth } from "./_text_width.ts";

/** A point in pixels (origin top left) with its label. */
export interface LabelPoint {
  px: number;
  py: number;
  text: string;
}

/** Where a label goes: its box (pixels) and, when moved away, the leader's end on the box. */
export interface LabelPlace {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  leader?: { x: number; y: number };
}

/** Half the side of a point marker's box (size 36 ≈ a 6 pt marker, plus a margin). */
const MARK = 4;

const overlaps = (a: Box, b: Box) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
type Box = { x1: number; y1: number; x2: number; y2: number };

/**
 * Place each label beside its point: right, left, above or below, then
 * farther away with a leader line; a label never covers another label, a
 * point, or leaves the plot. Crowded points are placed first.
 *
 * @returns One place per point, or `undefined` when some label does not fit
 *   (the caller then shows a legend instead).
 */
export function placeLabels(
  points: readonly LabelPoint[],
  width: number,
  height: number,
  size = 7,
): LabelPlace[] | undefined {
  const h = size * 1.25;
  const marks: Box[] = points.map((p) => ({
    x1: p.px - MARK,
    y1: p.py - MARK,
    x2: p.px + MARK,
    y2: p.py + MARK,
  }));
  const crowd = (i: number) =>
    points.filter((q) => Math.hypot(q.px - points[i].px, q.py - points[i].py) < 30).length;
  const order = points.map((_, i) => i).sort((a, b) => crowd(b) - crowd(a) || a - b);
  const placed: Box[] = [];
  const out: LabelPlace[] = new Array(points.length);
  for (const i of order) {
    const p = points[i];
    const w = textWidth(p.text, size) + 2;
    let found: LabelPlace | undefined;
    for (const d of [0, 10, 20, 32, 46]) {
      const g = MARK + 1 + d;
      const candidates: Box[] = [
        { x1: p.px + g, y1: p.py - h / 2, x2: p.px + g + w, y2: p.py + h / 2 },
        { x1: p.px - g - w, y1: p.py - h / 2, x2: p.px - g, y2: p.py + h / 2 },
        { x1: p.px - w / 2, y1: p.py - g - h, x2: p.px + w / 2, y2: p.py - g },
        { x1: p.px - w / 2, y1: p.py + g, x2: p.px + w / 2, y2: p.py + g + h },
        { x1: p.px + g * 0.7, y1: p.py - g * 0.7 - h, x2: p.px + g * 0.7 + w, y2: p.py - g * 0.7 },
        { x1: p.px + g * 0.7, y1: p.py + g * 0.7, x2: p.px + g * 0.7 + w, y2: p.py + g * 0.7 + h },
        { x1: p.px - g * 0.7 - w, y1: p.py - g * 0.7 - h, x2: p.px - g * 0.7, y2: p.py - g * 0.7 },
        { x1: p.px - g * 0.7 - w, y1: p.py + g * 0.7, x2: p.px - g * 0.7, y2: p.py + g * 0.7 + h },
      ];
      const box = candidates.find((b) =>
        b.x1 >= 0 && b.x2 <= width && b.y1 >= 0 && b.y2 <= height &&
        !placed.some((o) => overlaps(o, b)) && !marks.some((m) => overlaps(m, b))
      );
      if (box) {
        found = { ...box };
        if (d > 0) {
          found.leader = {
            x: Math.min(Math.max(p.px, box.x1), box.x2),
            y: Math.min(Math.max(p.py, box.y1), box.y2),
          };
        }
        break;
      }
    }
    if (!found) return undefined;
    placed.push(found);
    out[i] = found;
  }
  return out;
}
