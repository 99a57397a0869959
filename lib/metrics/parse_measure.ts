/**
 * Parsing of measure strings in the ir_measures syntax.
 *
 * @module
 */
import type { Cutoff, Measure, MeasureDef, MeasureParam, ParamValue } from "./measure.ts";
import type { MeasureRegistry } from "./measure_registry.ts";
import { defaultRegistry } from "./default_registry.ts";

/** Options of {@linkcode parseMeasure}. */
export interface ParseMeasureOptions {
  /** Registry to resolve names in. Default: the built-in measures. */
  registry?: MeasureRegistry;
}

const SYNTAX = /^([A-Za-z][\w.\-]*?)(?:\(([^()]*)\))?(?:@([^@\s]*))?$/;

/**
 * Parses a measure string such as `nDCG@10`, `alpha_nDCG(alpha=0.5)@20`,
 * `Cov(tau=4)@oracle`, or an alias (`MAP`, `ndcg_cut_10`, `P.10`, `recip_rank`).
 * Every parameter written in the string is kept, even one equal to its
 * declared default: an explicit `Cov(tau=3)` is not `Cov`, since a
 * command-wide default (`evaluate`'s `tau`, `crux eval --tau`) applies only to
 * parameters the string leaves out. {@linkcode formatMeasure} prints the
 * canonical short form, and parsing that gives back an equivalent measure.
 *
 * @param text The measure string.
 * @param opts `registry` (default: the built-in measures).
 * @returns The parsed measure with its canonical name.
 * @throws {Error} On malformed syntax, unknown names (listing close names),
 *   unknown parameters, bad values, or a missing/forbidden cutoff.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMeasure } from "@lib/metrics/mod.ts";
 * assert.deepEqual(parseMeasure("ndcg_cut.10"), { name: "nDCG", params: {}, cutoff: 10 });
 * assert.deepEqual(parseMeasure("alpha_nDCG(alpha=0.5)@20"), { name: "alpha_nDCG", params: { alpha: 0.5 }, cutoff: 20 });
 * ```
 */
export function parseMeasure(text: string, opts: ParseMeasureOptions = {}): Measure {
  const registry = opts.registry ?? defaultRegistry();
  const input = text.trim();
  const match = SYNTAX.exec(input);
  if (!match) {
    throw new Error(
      `Cannot parse measure "${text}": expected Name(param=value,...)@cutoff, e.g. "nDCG@10"`,
    );
  }
  let [, name, paramText, cutoffText] = match;
  let suffixCutoff: string | undefined;
  if (!registry.get(name)) {
    const alias = registry.resolveAlias(name);
    if (alias && !alias.cutoffSuffix) {
      name = alias.name;
    } else {
      // trec_eval style `name_N` / `name.N`: an alias with a cutoff suffix or a canonical name.
      const split = /^(.+?)[._](\d+)$/.exec(name);
      const target = split && registry.resolveAlias(split[1]);
      if (split && (target?.cutoffSuffix || registry.get(split[1]))) {
        name = target?.name ?? split[1];
        suffixCutoff = split[2];
      } else if (alias?.cutoffSuffix) {
        throw new Error(
          `Cannot parse measure "${text}": "${name}" needs a cutoff suffix, e.g. "${name}_10"`,
        );
      }
    }
  }
  const def = registry.require(name, text);
  if (suffixCutoff !== undefined && cutoffText !== undefined) {
    throw new Error(`Cannot parse measure "${text}": the cutoff is given twice`);
  }
  const params = parseParams(text, def, paramText);
  const cutoff = parseCutoff(text, def, suffixCutoff ?? cutoffText);
  return cutoff === undefined ? { name: def.name, params } : { name: def.name, params, cutoff };
}

function parseParams(
  text: string,
  def: MeasureDef,
  paramText: string | undefined,
): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {};
  if (paramText === undefined || paramText.trim() === "") return params;
  const declared = Object.keys(def.params);
  const given = new Set<string>();
  for (const part of paramText.split(",")) {
    const eq = part.indexOf("=");
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const raw = eq < 0 ? "" : part.slice(eq + 1).trim();
    const spec = def.params[key];
    if (!spec) {
      const list = declared.length ? declared.join(", ") : "none";
      throw new Error(
        `Cannot parse measure "${text}": ${def.name} has no parameter "${key}" (parameters: ${list})`,
      );
    }
    if (given.has(key)) {
      throw new Error(`Cannot parse measure "${text}": parameter "${key}" is given twice`);
    }
    given.add(key);
    const value = parseValue(raw, spec.default);
    if (value === undefined) {
      const kind = typeof spec.default === "boolean" ? "true or false" : "a number";
      throw new Error(
        `Cannot parse measure "${text}": parameter "${key}" must be ${kind}, got "${raw}"`,
      );
    }
    const range = outOfRange(value, spec);
    if (range) throw new Error(`Cannot parse measure "${text}": parameter "${key}" ${range}`);
    params[key] = value;
  }
  // Declaration order, so measures written alike have equal key order.
  const ordered: Record<string, ParamValue> = {};
  for (const key of declared) if (key in params) ordered[key] = params[key];
  return ordered;
}

/** Why `value` is not allowed for `spec`, or undefined when it is. */
function outOfRange(value: ParamValue, spec: MeasureParam): string | undefined {
  if (typeof value !== "number") return undefined;
  if (!Number.isFinite(value)) return `must be a finite number, got ${value}`;
  if (spec.integer && !Number.isInteger(value)) return `must be a whole number, got ${value}`;
  const low = spec.min !== undefined && value < spec.min;
  const high = spec.max !== undefined && value > spec.max;
  if (!low && !high) return undefined;
  const range = spec.max === undefined
    ? `>= ${spec.min}`
    : spec.min === undefined
    ? `<= ${spec.max}`
    : `from ${spec.min} to ${spec.max}`;
  return `must be ${range}, got ${value}`;
}

function parseValue(raw: string, like: ParamValue): ParamValue | undefined {
  if (typeof like === "boolean") {
    if (/^(true|1)$/i.test(raw)) return true;
    if (/^(false|0)$/i.test(raw)) return false;
    return undefined;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(raw)) return undefined;
  return Number(raw);
}

function parseCutoff(text: string, def: MeasureDef, raw: string | undefined): Cutoff | undefined {
  if (raw === undefined) {
    if (def.cutoff === "required") {
      throw new Error(
        `Cannot parse measure "${text}": ${def.name} needs a cutoff, e.g. "${def.name}@10"`,
      );
    }
    return undefined;
  }
  if (def.cutoff === "none") {
    throw new Error(`Cannot parse measure "${text}": ${def.name} takes no cutoff`);
  }
  if (raw === "oracle") {
    if (!def.oracleCutoff) {
      throw new Error(`Cannot parse measure "${text}": ${def.name} does not accept "@oracle"`);
    }
    return "oracle";
  }
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new Error(
      `Cannot parse measure "${text}": the cutoff must be a positive integer or "oracle", got "${raw}"`,
    );
  }
  return Number(raw);
}
