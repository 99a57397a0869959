/**
 * The figure palette stored with an experiment's workspace.
 *
 * @module
 */
import { metaKeyRemoval, readMetaText, type Workspace, writeMetaJson } from "@lib/store/mod.ts";
import {
  type Palette,
  type SeriesInput,
  seriesPalette,
  type SeriesStyle,
} from "./series_palette.ts";

/** The `meta` key holding the palette (JSON). */
export const PALETTE_KEY = "figure_palette";

/**
 * The palette of an experiment: the one stored in the workspace's `meta`
 * table (key `figure_palette`), extended with any series not yet in it, and
 * stored back when it grew (unless the workspace is read-only). Every figure
 * of the experiment (analyses, notebooks, the demo) that passes this palette
 * gives a series the same colour and shape, across runs of the analyses.
 *
 * @param ws An open workspace.
 * @param series Series to make sure of, with their kinds (e.g. the conditions' labels and kinds).
 * @returns The palette: stored series first, in stored order, then the new ones.
 * @throws {Error} When the stored value is not a palette (the message names the key to delete).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openWorkspace } from "@lib/store/mod.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * const p = await experimentPalette(ws, [{ name: "bm25", kind: "pipeline" }]);
 * assert.equal(p.series["bm25"].color, "#0072B2"); // now and in every later call
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function experimentPalette(
  ws: Workspace,
  series: readonly SeriesInput[],
): Promise<Palette> {
  const text = await readMetaText(ws, PALETTE_KEY);
  const stored = text === undefined ? undefined : parse(text, ws.dir);
  const palette = seriesPalette(series, stored);
  if (!ws.readOnly && palette.order.length !== (stored?.order.length ?? 0)) {
    await writeMetaJson(ws, PALETTE_KEY, palette);
  }
  return palette;
}

function parse(text: string, dir: string): Palette {
  const fail = (why: string) =>
    new Error(
      `${dir}: meta ${PALETTE_KEY}: ${why}; delete the row (${
        metaKeyRemoval(PALETTE_KEY)
      }) to reassign colours`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail("not JSON");
  }
  const p = value as Palette;
  if (
    !p || !Array.isArray(p.order) || typeof p.series !== "object" ||
    !p.order.every((n) => typeof (p.series[n] as SeriesStyle | undefined)?.color === "string")
  ) throw fail("not a palette ({ series, order })");
  return { series: p.series, order: p.order };
}
