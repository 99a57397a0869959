/** A statistic across pipelines as a table asks for it and shows it (private). */
import type { MeasureRef, StatisticKey } from "@lib/store/mod.ts";
import type { CellSource, CruxData } from "./types.ts";
import type { StatisticRequest } from "./compute_statistics.ts";
import { NOT_STORED, type ShownStatistic, storedStatistic } from "./stored_statistic.ts";

/** One input of a statistic: where its value is stored and the value, or why it has none. */
export interface StatisticInput {
  /** The stored measure; undefined when the condition has none to read. */
  ref?: MeasureRef;
  /** Its stored value over the topic set; null when none is stored. */
  value: number | null;
  /** What it is, for reasons (e.g. `bm25 Cov(y)`). */
  label: string;
  /** Why it has no stored value. */
  missing?: string;
}

/** A statistic of a table: what it asks the stage for, and what it shows. */
export interface TableStatistic {
  /** Undefined when an input has no stored measure at all: nothing to compute. */
  request?: StatisticRequest;
  shown: ShownStatistic;
  /** The stored rows of its inputs, for the cells file. */
  inputs: NonNullable<CellSource["inputs"]>;
}

/**
 * The statistic of `key` over `x` (and `y`): the request the statistics stage
 * answers, and the stored row read for it (or why there is none).
 */
export function tableStatistic(
  data: Pick<CruxData, "statistics">,
  key: Omit<StatisticKey, "x" | "y">,
  x: readonly StatisticInput[],
  y?: readonly StatisticInput[],
): TableStatistic {
  const all = [...x, ...(y ?? [])];
  const inputs = all.flatMap((i) =>
    i.ref && i.value !== null ? [{ ...i.ref, topicId: key.topicSet }] : []
  );
  const unread = all.filter((i) => !i.ref);
  if (unread.length) {
    const reason = `no stored measure to read for ${
      unread.map((i) => i.missing ? `${i.label} (${i.missing})` : i.label).join(", ")
    }`;
    return { shown: { id: "", value: null, n: 0, reason }, inputs };
  }
  const full: StatisticKey = {
    ...key,
    x: x.map((i) => i.ref!),
    ...(y ? { y: y.map((i) => i.ref!) } : {}),
  };
  const missing = all.filter((i) => i.value === null).map((i) =>
    `${i.label}: ${i.missing ?? "no stored mean"}`
  );
  return {
    request: {
      key: full,
      x: x.map((i) => i.value),
      ...(y ? { y: y.map((i) => i.value) } : {}),
      ...(missing.length ? { missing } : {}),
    },
    shown: storedStatistic(data, full),
    inputs,
  };
}

/**
 * The cells-file line of a statistic's cell: derived from its stored row, or
 * blank with the reason (`withheld` overrides it for a stored value the table
 * does not show as a number, e.g. a correlation over too few pipelines).
 */
export function statisticCell(
  row: string,
  column: string,
  derived: string,
  s: TableStatistic,
  withheld?: string,
): CellSource {
  const statistic = s.shown.id ? { statistic: s.shown.id } : {};
  if (s.shown.value === null) return { row, column, reason: s.shown.reason, ...statistic };
  if (withheld) return { row, column, reason: withheld, ...statistic };
  return { row, column, derived, inputs: s.inputs, ...statistic };
}

/** The note of a table whose statistics the workspace does not hold (none when it holds them all). */
export function notStoredNote(stats: Iterable<TableStatistic>): string[] {
  const n = [...stats].filter((s) => s.shown.reason === NOT_STORED).length;
  return n
    ? [
      `${n} statistic${
        n > 1 ? "s" : ""
      } blank: not stored in the workspace (the statistics stage of \`crux run\` computes them from the stored measures).`,
    ]
    : [];
}
