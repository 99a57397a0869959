/**
 * Checks the CRUX settings an experiment config writes (`construct.tau`,
 * `analysis.tau`, `w`, `thresholds`, `cutoffs`, `contexts`) before
 * `cruxSettings` fills in what is missing from `CRUX_DEFAULTS`.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import { type CruxSettings, cruxSettings } from "./crux_settings.ts";

/** Builds the error of a field (the config file is named by the caller). */
type Bad = (field: string, message: string) => Error;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** A rating threshold: an integer 1-5 (ratings run 0-5). */
function checkTau(value: unknown, field: string, bad: Bad): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 5) {
    throw bad(
      field,
      `must be an integer 1-5 (the rating at which a sub-question counts as answered; default ${CRUX_DEFAULTS.tau}), got ${
        JSON.stringify(value)
      }`,
    );
  }
}

/** Context sizes or depths: positive integers or `"oracle"` (|P*|). */
function checkCutoffs(value: unknown, field: string, fallback: readonly unknown[], bad: Bad) {
  if (value === undefined) return;
  const ok = Array.isArray(value) && value.length > 0 &&
    value.every((c) => c === "oracle" || (Number.isInteger(c) && c > 0));
  if (!ok) {
    throw bad(
      field,
      `must be a non-empty list of positive integers or "oracle" (default ${
        JSON.stringify(fallback)
      }), got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * Checks the CRUX fields of a raw config and resolves them with `cruxSettings`.
 *
 * @param raw The parsed JSON of the config file.
 * @param bad Builds an error naming the config file and the field.
 * @returns The resolved settings (defaults from `CRUX_DEFAULTS`).
 * @throws {TypeError} From `bad`, naming the first wrong field, e.g.
 *   `analysis.tau must be an integer 1-5`.
 */
export function checkCruxSettings(
  raw: Record<string, unknown>,
  bad: Bad,
): CruxSettings {
  const construct = raw.construct;
  if (construct !== undefined && !isRecord(construct)) throw bad("construct", "must be an object");
  checkTau(construct?.tau, "construct.tau", bad);
  const analysis = raw.analysis;
  if (analysis !== undefined && !isRecord(analysis)) throw bad("analysis", "must be an object");
  checkTau(analysis?.tau, "analysis.tau", bad);
  const w = analysis?.w;
  if (w !== undefined && (typeof w !== "number" || !Number.isFinite(w) || w < 0)) {
    throw bad(
      "analysis.w",
      `must be a number >= 0 (the density exponent; default ${CRUX_DEFAULTS.w}), got ${
        JSON.stringify(w)
      }`,
    );
  }
  const thresholds = analysis?.thresholds;
  if (thresholds !== undefined) {
    if (!Array.isArray(thresholds) || thresholds.length === 0) {
      throw bad(
        "analysis.thresholds",
        `must be a non-empty list of integers 1-5 (default ${
          JSON.stringify(CRUX_DEFAULTS.thresholds)
        }), got ${JSON.stringify(thresholds)}`,
      );
    }
    thresholds.forEach((t, i) => checkTau(t, `analysis.thresholds[${i}]`, bad));
  }
  checkCutoffs(analysis?.cutoffs, "analysis.cutoffs", CRUX_DEFAULTS.contextCutoffs, bad);
  const contexts = analysis?.contexts;
  if (contexts !== undefined) {
    if (!isRecord(contexts)) throw bad("analysis.contexts", "must be an object");
    const extra = Object.keys(contexts).find((k) => k !== "runs" && k !== "cutoffs");
    if (extra) throw bad(`analysis.contexts.${extra}`, "is unknown; known: runs, cutoffs");
    checkCutoffs(
      contexts.cutoffs,
      "analysis.contexts.cutoffs",
      CRUX_DEFAULTS.evaluationCutoffs,
      bad,
    );
    if (contexts.runs !== undefined) {
      const list = contexts.runs;
      if (!Array.isArray(list) || list.length === 0) {
        throw bad("analysis.contexts.runs", "must be a non-empty list of run names");
      }
      list.forEach((r, i) => {
        if (typeof r !== "string" || r === "") {
          throw bad(`analysis.contexts.runs[${i}]`, `must be a run name, got ${JSON.stringify(r)}`);
        }
      });
    }
  }
  checkHumanStudy(analysis?.humanStudy, bad);
  return cruxSettings({
    construct: construct as { tau?: number } | undefined,
    analysis: analysis as CruxSettingsInput["analysis"],
    retrieve: raw.retrieve as CruxSettingsInput["retrieve"],
  });
}

/** `analysis.humanStudy`: `{files: [two file names or more], run?: "<run>"}`. */
function checkHumanStudy(value: unknown, bad: Bad): void {
  if (value === undefined) return;
  const field = "analysis.humanStudy";
  if (!isRecord(value)) throw bad(field, 'must be an object {"files": [...], "run": "..."}');
  const extra = Object.keys(value).find((k) => k !== "files" && k !== "run");
  if (extra) throw bad(`${field}.${extra}`, "is unknown; known: files, run");
  const files = value.files;
  if (!Array.isArray(files) || files.length < 2) {
    throw bad(
      `${field}.files`,
      `must be a list of two annotators' label files or more, got ${JSON.stringify(files)}`,
    );
  }
  files.forEach((f, i) => {
    if (typeof f !== "string" || f === "") {
      throw bad(`${field}.files[${i}]`, `must be a file name, got ${JSON.stringify(f)}`);
    }
  });
  if (value.run !== undefined && (typeof value.run !== "string" || value.run === "")) {
    throw bad(`${field}.run`, `must be a generation run name, got ${JSON.stringify(value.run)}`);
  }
}

type CruxSettingsInput = Parameters<typeof cruxSettings>[0];
