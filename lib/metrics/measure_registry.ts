/**
 * The registry of measure declarations and their aliases.
 *
 * @module
 */
import type { MeasureDef } from "./measure.ts";
import { closeNames } from "./_close_names.ts";

/** How an alias maps onto a measure. */
export interface AliasOptions {
  /**
   * When true the alias takes a numeric suffix that becomes the cutoff
   * (`ndcg_cut_10` and `ndcg_cut.10` -> `nDCG@10`). Default false.
   */
  cutoffSuffix?: boolean;
}

/** A resolved alias. */
export interface AliasTarget {
  name: string;
  cutoffSuffix: boolean;
}

/**
 * A set of measure declarations, looked up by canonical name or alias.
 *
 * @example
 * ```ts
 * import { type MeasureDef, MeasureRegistry } from "@lib/metrics/mod.ts";
 * const hits: MeasureDef = {
 *   name: "Hits",
 *   description: "Relevant documents in the top k.",
 *   citation: "none",
 *   params: {},
 *   cutoff: "required",
 *   oracleCutoff: false,
 *   needs: "qrels",
 *   compute: (view, m) => view.grades().subarray(0, m.depth).filter((g) => g >= 1).length,
 * };
 * const registry = new MeasureRegistry();
 * registry.register(hits);
 * registry.alias("hits", hits.name);
 * ```
 */
export class MeasureRegistry {
  #defs = new Map<string, MeasureDef>();
  #aliases = new Map<string, AliasTarget>();

  /**
   * Adds a declaration.
   *
   * @param def The measure declaration.
   * @returns The registry, for chaining.
   * @throws {Error} When the name is already a measure or an alias.
   */
  register(def: MeasureDef): this {
    if (this.#defs.has(def.name) || this.#aliases.has(def.name)) {
      throw new Error(
        `Cannot register measure "${def.name}": the name is already registered; choose another name`,
      );
    }
    this.#defs.set(def.name, def);
    return this;
  }

  /**
   * Adds an alias of a registered measure.
   *
   * @param alias Alternative name (`MAP`, `ndcg_cut`).
   * @param target Canonical name of a registered measure.
   * @param opts `cutoffSuffix` (default false): the alias carries the cutoff as `_N` or `.N`.
   * @returns The registry, for chaining.
   * @throws {Error} When the alias is taken or the target is unknown.
   */
  alias(alias: string, target: string, opts: AliasOptions = {}): this {
    if (!this.#defs.has(target)) {
      throw new Error(`Cannot add alias "${alias}": no measure is named "${target}"`);
    }
    if (this.#defs.has(alias) || this.#aliases.has(alias)) {
      throw new Error(
        `Cannot add alias "${alias}" for "${target}": the name is already registered`,
      );
    }
    this.#aliases.set(alias, { name: target, cutoffSuffix: opts.cutoffSuffix ?? false });
    return this;
  }

  /** The declaration named `name` (canonical names only), or undefined. */
  get(name: string): MeasureDef | undefined {
    return this.#defs.get(name);
  }

  /** The alias named `alias`, or undefined. */
  resolveAlias(alias: string): AliasTarget | undefined {
    return this.#aliases.get(alias);
  }

  /** Canonical measure names in registration order. */
  names(): string[] {
    return [...this.#defs.keys()];
  }

  /** Alias names in registration order. */
  aliases(): string[] {
    return [...this.#aliases.keys()];
  }

  /**
   * The declaration named `name`, throwing a helpful error when there is none.
   *
   * @param name Canonical measure name.
   * @param context The full measure string, for the message.
   * @throws {Error} Listing close names and every known measure.
   */
  require(name: string, context = name): MeasureDef {
    const def = this.#defs.get(name);
    if (def) return def;
    const close = closeNames(name, [...this.names(), ...this.aliases()]);
    const hint = close.length ? ` Did you mean ${close.join(", ")}?` : "";
    throw new Error(
      `Unknown measure "${context}": no measure is named "${name}".${hint} ` +
        `Known measures: ${this.names().join(", ")}`,
    );
  }
}
