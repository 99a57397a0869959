/**
 * The experiment's palette extended to every name a condition goes by in the
 * method analyses (generation run, retrieval run, reference kind).
 *
 * @module
 */
import { type Palette, PALETTE_KEY, type SeriesInput, seriesPalette } from "@lib/report/mod.ts";
import {
  readGeneratedRuns,
  readMetaJson,
  readRetrievalRunNames,
  type WorkspaceLike,
} from "@lib/store/mod.ts";
import { REFERENCE_LABELS } from "./resolve_conditions.ts";
import type { Condition } from "./types.ts";

const REFERENCES = Object.keys(REFERENCE_LABELS) as (keyof typeof REFERENCE_LABELS)[];

/**
 * Aliases of conditions: each condition's generation run, retrieval run and
 * (for references) kind name share the condition label's style.
 */
export function conditionAliases(conditions: readonly Condition[]): SeriesInput[] {
  return conditions.flatMap((c) =>
    [c.generation, c.run, c.kind === "pipeline" ? undefined : c.kind]
      .filter((n): n is string => !!n && n !== c.label)
      .map((name) => ({ name, like: c.label }))
  );
}

/**
 * The experiment's palette (meta `figure_palette`, read only) with every
 * condition of the workspace, found as `resolveConditions` finds them by
 * default, and their aliases: a generation run (`rag-bm25`) looks like its
 * pipeline (`bm25`), `direct` like `Direct (no context)`, and so on.
 *
 * @param ws The workspace.
 * @returns The palette, for the method analyses' figures.
 * @example
 * ```ts
 * import { runPalette } from "@lib/analysis/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const palette = await runPalette(ws);
 * palette.order; // the conditions' labels, in display order
 * ws.close();
 * ```
 */
export async function runPalette(ws: WorkspaceLike): Promise<Palette> {
  const stored = await readMetaJson<Palette>(ws, PALETTE_KEY).catch(() => undefined);
  const base = stored && Array.isArray(stored.order) && typeof stored.series === "object"
    ? stored
    : undefined; // an invalid stored palette is reported by experimentPalette
  const gens = await readGeneratedRuns(ws).catch(() => []);
  const runs = new Set(await readRetrievalRunNames(ws).catch(() => []));
  const conditions: Condition[] = [];
  for (const g of gens) {
    const kind = g.condition ?? "rag";
    if ((REFERENCES as string[]).includes(kind)) continue;
    const bare = g.run.startsWith("rag-") ? g.run.slice(4) : undefined;
    const named = runs.has(g.run) ? g.run : bare && runs.has(bare) ? bare : undefined;
    const label = named && named === bare ? bare : g.run;
    conditions.push({ name: g.run, label, kind: "pipeline", generation: g.run, run: named });
  }
  for (const kind of REFERENCES) {
    const g = gens.find((r) => r.condition === kind);
    conditions.push({
      name: kind,
      label: REFERENCE_LABELS[kind],
      kind,
      generation: g?.run ?? kind,
    });
  }
  return seriesPalette([
    ...conditions.map((c) => ({ name: c.label, kind: c.kind })),
    ...conditionAliases(conditions),
  ], base);
}

/** `color` mixed with white by `share` (0 = unchanged, 1 = white). */
function tint(color: string, share: number): string {
  const c = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  return "#" + c.map((v) => Math.round(v + (255 - v) * share).toString(16).padStart(2, "0"))
    .join("").toUpperCase();
}

/**
 * Styles of evaluated contexts: a run's first cutoff (`bm25 top-10`) looks
 * like its pipeline, further cutoffs take its colour lightened, the oracle
 * context like the oracle context P*, the empty context like direct prompting.
 */
export function contextPalette(
  base: Palette,
  conditions: readonly { label: string; kind: "run" | "oracle" | "empty" }[],
): Palette {
  const out: Palette = { series: { ...base.series }, order: [...base.order] };
  const seen = new Map<string, number>();
  for (const c of conditions) {
    if (out.series[c.label]) continue;
    const run = c.kind === "run" ? c.label.replace(/ top-[^ ]+$/, "") : undefined;
    const like = run ??
      (c.kind === "oracle" ? REFERENCE_LABELS["oracle-context"] : REFERENCE_LABELS.direct);
    const n = seen.get(like) ?? 0;
    seen.set(like, n + 1);
    const style = out.series[like] ?? seriesPalette([like], out).series[like];
    out.series[c.label] = n === 0
      ? { ...style }
      : { ...style, color: tint(style.color, Math.min(0.6, 0.35 * n)) };
    out.order.push(c.label);
  }
  return out;
}
