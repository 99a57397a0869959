/**
 * Private: the palette of an analysis' conditions.
 *
 * @module
 */
import { type Palette, seriesPalette } from "@lib/report/mod.ts";
import { resolveConditions } from "./resolve_conditions.ts";
import type { Condition, CruxData } from "./types.ts";

/**
 * Colours and shapes by condition label: the experiment's stored palette
 * (`data.palette`) first, then every condition of the workspace in resolved
 * order, then the given ones, so a condition has the same colour in every
 * figure even when a figure shows only some conditions.
 */
export function conditionPalette(data: CruxData, conditions: readonly Condition[]): Palette {
  const all = [...resolveConditions(data), ...conditions];
  return seriesPalette(all.map((c) => ({ name: c.label, kind: c.kind })), data.palette);
}
