/**
 * Private: the rect-plus-text body shared by the heatmaps.
 *
 * @module
 */

/** What a heatmap shows. */
export interface HeatmapParts {
  x: { field: string; title: string; sort: unknown[] };
  y: { field: string; title: string; sort: unknown[] };
  /** Colour encoding of the rects (field, scale, legend, condition). */
  color: Record<string, unknown>;
  /** Text encoding of the cell labels, or undefined for no labels. */
  text?: Record<string, unknown>;
  /** Vega expression: cells where it holds get white text (dark background). */
  lightText: string;
  /** Cell size in pixels. */
  cell: number;
}

/** Build the encoding and layers of a heatmap. */
export function heatmapBody(p: HeatmapParts): Record<string, unknown> {
  const layers: Record<string, unknown>[] = [
    { mark: { type: "rect", stroke: "white", strokeWidth: 1 }, encoding: { color: p.color } },
  ];
  if (p.text) {
    layers.push({
      mark: { type: "text", fontSize: 7 },
      encoding: {
        text: p.text,
        color: { condition: { test: p.lightText, value: "white" }, value: "black" },
      },
    });
  }
  return {
    width: { step: p.cell },
    height: { step: p.cell },
    encoding: {
      x: {
        field: p.x.field,
        type: "ordinal",
        sort: p.x.sort,
        title: p.x.title,
        axis: { orient: "top", labelAngle: -45, labelLimit: 120, labelOverlap: false },
      },
      y: {
        field: p.y.field,
        type: "ordinal",
        sort: p.y.sort,
        title: p.y.title,
        axis: { labelLimit: 140 },
      },
    },
    layer: layers,
  };
}
