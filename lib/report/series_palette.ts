/**
 * A fixed colour and marker shape per series (condition, pipeline, run), the
 * same in every figure that receives the palette.
 *
 * @module
 */

/** What a series is; references get reserved styles so they read the same everywhere. */
export type SeriesKind =
  | "pipeline"
  | "direct"
  | "oracle-context"
  | "oracle-result"
  | "human"
  | "other";

/** Colour, marker shape and kind of one series. */
export interface SeriesStyle {
  color: string;
  /** A Vega point shape (`circle`, `square`, `diamond`, ...). */
  shape: string;
  kind: SeriesKind;
}

/** Styles by series name, with the assignment order (the colour scale's domain). */
export interface Palette {
  series: Record<string, SeriesStyle>;
  order: string[];
}

/**
 * A series to style: its name, or its name and kind; `like` names a series
 * (earlier in the list or in the base palette) whose style it shares, e.g. a
 * generation run `rag-bm25` like its pipeline `bm25`.
 */
export type SeriesInput = string | { name: string; kind?: SeriesKind; like?: string };

/**
 * Colours of pipelines and other series: Okabe-Ito (safe with colour-vision
 * deficiencies), then colours of Paul Tol's schemes; vermillion, grey, indigo
 * and black are reserved for the references (direct prompting grey, oracle
 * context vermillion, oracle result indigo, human labels black diamonds).
 */
export const SERIES_COLORS = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#56B4E9",
  "#882255",
  "#117733",
  "#999933",
  "#AA4499",
  "#44AA99",
  "#661100",
  "#C7B000",
  "#88CCEE",
];

const SHAPES = ["circle", "square", "triangle-up", "triangle-left", "triangle-right", "cross"];

/** Styles of the reference kinds (never used for pipelines). */
export const RESERVED: Readonly<Record<string, Omit<SeriesStyle, "kind">>> = {
  "direct": { color: "#7F7F7F", shape: "triangle-down" },
  "oracle-context": { color: "#D55E00", shape: "diamond" },
  "oracle-result": { color: "#332288", shape: "square" },
  "human": { color: "#000000", shape: "diamond" },
};

/**
 * Assign each new series a style, keeping every style of `base`: references
 * (`direct`, `oracle-context`, `oracle-result`, `human`) take their reserved
 * colour and shape; pipelines and other series take the first colour-shape
 * pair not yet used (13 colours and 6 shapes cycling together, so up to 78
 * series never share both); a series `like` another takes that one's style.
 *
 * @param series Names (kind `other`) or `{ name, kind }`, in the order to assign.
 * @param base An earlier palette (e.g. stored with the experiment); not modified.
 * @returns A new palette holding `base`'s series and then the new ones.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const p = seriesPalette([{ name: "bm25", kind: "pipeline" }, { name: "P*", kind: "oracle-context" }]);
 * assert.equal(p.series["bm25"].color, "#0072B2");
 * assert.equal(p.series["P*"].color, "#D55E00");
 * const q = seriesPalette(["dense"], p); // bm25 and P* keep their colours
 * assert.equal(q.series["bm25"].color, "#0072B2");
 * assert.equal(q.series["P*"].color, "#D55E00");
 * ```
 */
export function seriesPalette(series: readonly SeriesInput[], base?: Palette): Palette {
  const out: Palette = {
    series: { ...(base?.series ?? {}) },
    order: [...(base?.order ?? [])],
  };
  const used = new Set(Object.values(out.series).map((s) => `${s.color} ${s.shape}`));
  for (const s of series) {
    const name = typeof s === "string" ? s : s.name;
    const kind = (typeof s === "string" ? undefined : s.kind) ?? "other";
    if (out.series[name]) continue;
    const like = typeof s === "string" ? undefined : s.like;
    if (like !== undefined && out.series[like]) {
      out.series[name] = { ...out.series[like] };
      out.order.push(name);
      continue;
    }
    let style: SeriesStyle | undefined;
    const reserved = RESERVED[kind];
    if (reserved) style = { ...reserved, kind };
    for (let i = 0; !style; i++) {
      const color = SERIES_COLORS[i % SERIES_COLORS.length];
      const shape = SHAPES[i % SHAPES.length];
      if (!used.has(`${color} ${shape}`) || i >= SERIES_COLORS.length * SHAPES.length) {
        style = { color, shape, kind };
      }
    }
    used.add(`${style.color} ${style.shape}`);
    out.series[name] = style;
    out.order.push(name);
  }
  return out;
}
