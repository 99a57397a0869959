/**
 * Checks of saved figures: the style each drawn series gets, text marks that
 * overlap in the rendered scene, and the y scale domains.
 */
import * as vega from "vega";
import * as vl from "vega-lite";
// Installs the bundled font's text metrics into Vega, as for the saved figures.
import "../../lib/report/render_svg.ts";

/** Colour and shape (when encoded) of each drawn series, by series name. */
export function drawnStyles(
  spec: Record<string, unknown>,
): Map<string, { color?: string; shape?: string }> {
  const out = new Map<string, { color?: string; shape?: string }>();
  const values = ((spec.data as { values?: Record<string, unknown>[] } | undefined)?.values) ?? [];
  const walk = (o: unknown) => {
    if (Array.isArray(o)) return o.forEach(walk);
    if (!o || typeof o !== "object") return;
    const r = o as Record<string, unknown>;
    for (const ch of ["color", "shape"] as const) {
      const e = r[ch] as { field?: string; scale?: { domain?: unknown; range?: unknown } };
      if (e?.field && Array.isArray(e.scale?.domain) && Array.isArray(e.scale?.range)) {
        const drawn = new Set(values.map((v) => String(v[e.field!])));
        (e.scale!.domain as string[]).forEach((n, i) => {
          if (!drawn.has(n)) return;
          const s = out.get(n) ?? {};
          s[ch] = String((e.scale!.range as string[])[i]);
          out.set(n, s);
        });
      }
    }
    Object.values(r).forEach(walk);
  };
  walk(spec);
  return out;
}

type Item = {
  text?: unknown;
  bounds?: { x1: number; y1: number; x2: number; y2: number };
  opacity?: number;
  angle?: number;
  items?: Item[];
  mark?: { marktype?: string; role?: string };
  x?: number;
  y?: number;
};

/** A text mark as drawn: its text and its box in page coordinates. */
export interface TextBox {
  text: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  angle: number;
}

/** Render a spec headless; return its text boxes and its y scale domains. */
export async function renderedScene(
  spec: Record<string, unknown>,
): Promise<{ texts: TextBox[]; yDomains: { name: string; domain: number[] }[] }> {
  const compiled = vl.compile(structuredClone(spec) as unknown as vl.TopLevelSpec);
  const view = new vega.View(vega.parse(compiled.spec), { renderer: "none" });
  await view.runAsync();
  const texts: TextBox[] = [];
  const walk = (node: Item, dx: number, dy: number) => {
    const group = node.mark?.marktype === "group";
    if (node.mark?.marktype === "text" && node.bounds && node.text !== undefined) {
      const t = Array.isArray(node.text) ? node.text.join(" ") : String(node.text);
      if (t.trim() && (node.opacity ?? 1) > 0) {
        texts.push({
          text: t,
          x1: node.bounds.x1 + dx,
          y1: node.bounds.y1 + dy,
          x2: node.bounds.x2 + dx,
          y2: node.bounds.y2 + dy,
          angle: node.angle ?? 0,
        });
      }
    }
    const ox = group ? dx + (node.x ?? 0) : dx;
    const oy = group ? dy + (node.y ?? 0) : dy;
    for (const child of node.items ?? []) {
      walk(child, ox, oy);
    }
  };
  walk((view.scenegraph() as unknown as { root: Item }).root, 0, 0);
  const scales = (view as unknown as {
    _runtime: { scales: Record<string, { value: { domain(): number[]; type: string } }> };
  })
    ._runtime.scales;
  const yDomains = Object.entries(scales)
    .filter(([name, s]) => /(^|_)y$/.test(name) && ["linear", "sqrt", "log"].includes(s.value.type))
    .map(([name, s]) => ({ name, domain: s.value.domain() }));
  view.finalize();
  return { texts, yDomains };
}

/** Pairs of text boxes that overlap by more than `tolerance` points both ways. */
export function overlappingTexts(texts: readonly TextBox[], tolerance = 0.5): string[] {
  const out: string[] = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i];
      const b = texts[j];
      // Labels turned by the same oblique angle (a rotated axis) have crossing
      // upright boxes without their glyphs meeting.
      if (a.angle === b.angle && a.angle % 90 !== 0) continue;
      const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
      const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
      if (w > tolerance && h > tolerance) out.push(`"${a.text}" / "${b.text}"`);
    }
  }
  return out;
}
