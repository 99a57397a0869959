/**
 * The `nuggets` section of an experiment config: nugget evaluation as in the
 * TREC 2024 RAG track, as pipeline stages (create or import nuggets, label
 * importance, assign per answer run, score into the measure table).
 *
 * @module
 */
import { previousParams } from "@lib/pipeline/mod.ts";
import { basename } from "node:path";
import { readNuggetQuestions, readNuggets, readRagAnswers } from "@lib/formats/mod.ts";
import { resolveRoleConfig } from "@lib/llm/mod.ts";
import * as nug from "@lib/nuggets/mod.ts";
import {
  clearGenerations,
  clearNuggetAssignments,
  clearNuggetImportance,
  clearNuggetOrigin,
  deleteMeasures,
  readNuggetTopicCounts,
  writeMeasures,
} from "@lib/store/mod.ts";
import { parseNuggetsSection } from "./section.ts";
import { fileSha256, rememberByFile } from "@lib/pipeline/mod.ts";
import type { MethodStageContext, MethodStages, OpenBackends } from "@lib/pipeline/mod.ts";
import type { StageSpec } from "@lib/pipeline/mod.ts";

/** The `nuggets` section of an experiment config (every field optional). */
export interface NuggetsSection {
  /** `created` (default): from each topic's relevant passages; or a nugget file's path. */
  nuggets?: string;
  /** Layout of the nugget file: `nuggets` (TREC RAG, default) or `questions` (NeuCLIR). */
  format?: "nuggets" | "questions";
  /** TREC RAG answer files whose runs are judged beside the experiment's own. */
  answers?: string[];
  /** Only these answer runs. Default: every generation run plus the answer files' runs. */
  runs?: string[];
  /** Passage qrels of creation. Default `crux_pr`. */
  qrels?: string;
  /** Lowest grade of a creation passage. Default 1 (AutoNuggetizer: every passage judged at least related). */
  minGrade?: number;
  /** Window of every step. Default 10. */
  window?: number;
  /** Nuggets created per topic at most. Default 30. */
  maxNuggets?: number;
  /** Nuggets kept after importance. Default 20. */
  keep?: number;
  /** Re-asks at temperature 0.2 after unreadable output. Default 2. */
  reasks?: number;
  /** Offline assignment: support threshold (default 0.75), partial band start (0.4), vital share (0.25). */
  support?: number;
  partial?: number;
  vitalShare?: number;
}

/** The stage instances of a `nuggets` section. */
async function stages(
  s: NuggetsSection,
  ctx: MethodStageContext,
  backendOf: OpenBackends<nug.NuggetBackend>,
): Promise<StageSpec[]> {
  const note = (m: string) => ctx.onNote?.("judge", `nuggets: ${m}`);
  const online = ctx.backend === "openai";
  const model = online ? resolveRoleConfig("judge", { config: ctx.llm, env: ctx.env }).model : "";
  const file = s.nuggets && s.nuggets !== "created" ? s.nuggets : undefined;
  const origin = file ? `file:${basename(file)}` : `created:${online ? model : "offline"}`;
  const judge = online ? model : "lexical-nuggets";
  const io = { onNote: note, onProgress: ctx.onProgress, signal: ctx.signal };
  const backendParams = online ? { backend: "openai", model, reasks: s.reasks ?? 2 } : {
    backend: "offline",
    support: s.support ?? 0.75,
    partial: s.partial ?? 0.4,
    vitalShare: s.vitalShare ?? 0.25,
  };
  const window = s.window ?? 10;
  const out: StageSpec[] = [];
  const fileRuns: string[] = [];
  if (s.answers?.length) {
    // Remembered by file identity in the workspace folder: an unchanged re-run reads neither file.
    const digests = await Promise.all(
      s.answers.map((f) => fileSha256(f, ctx.outDir)),
    );
    for (const f of s.answers) {
      fileRuns.push(
        ...await rememberByFile(
          f,
          "answer-runs",
          async (p) => [...new Set((await readRagAnswers(p)).map((a) => a.runId))],
          ctx.outDir,
        ),
      );
    }
    out.push({
      id: "judge:nuggets-answers",
      stage: "judge",
      version: 1,
      params: { answers: s.answers.map((f, i) => ({ file: basename(f), sha256: digests[i] })) },
      deps: ctx.dataStages,
      clear: async (ws) => {
        for (const run of fileRuns) await clearGenerations(ws, run);
      },
      run: async (ws) => {
        let n = 0;
        for (const f of s.answers!) {
          n += (await nug.importRagAnswers(ws, await readRagAnswers(f))).answers;
        }
        return `${n} answers of ${fileRuns.length} runs imported`;
      },
    });
  }
  const runs = s.runs ?? [...new Set([...ctx.answerRuns, ...fileRuns])];
  out.push({
    id: "judge:nuggets-create",
    stage: "judge",
    version: 1,
    params: file
      ? {
        file: basename(file),
        format: s.format ?? "nuggets",
        sha256: await fileSha256(file, ctx.outDir),
      }
      : {
        ...backendParams,
        qrels: s.qrels ?? "crux_pr",
        minGrade: s.minGrade ?? 1,
        window,
        maxNuggets: s.maxNuggets ?? 30,
      },
    deps: ctx.dataStages,
    clear: async (ws) => {
      await clearNuggetOrigin(ws, origin);
    },
    run: async (ws) => {
      if (file) {
        let dropped = 0;
        const sets = s.format === "questions"
          ? await readNuggetQuestions(file, { onDuplicates: (n) => dropped = n })
          : await readNuggets(file, { onDuplicates: (n) => dropped = n });
        const r = await nug.importNuggets(ws, sets, { origin });
        const repeats = dropped ? ` (${dropped} identical repeated lines dropped)` : "";
        return `${r.nuggets} nuggets of ${r.topics} topics imported from ${
          basename(file)
        }${repeats}`;
      }
      const sources = await nug.relevantPassages(ws, { qrelsName: s.qrels, minGrade: s.minGrade });
      if (!sources.length) {
        note(
          `no passage is graded >= ${s.minGrade ?? 1} in the qrels "${
            s.qrels ?? "crux_pr"
          }": no nuggets created (run the CRUX selection first, or give a nugget file in nuggets.nuggets)`,
        );
      }
      const r = await nug.createNuggets(ws, sources, {
        ...io,
        backend: await backendOf(ws),
        window,
        maxNuggets: s.maxNuggets,
      });
      return {
        summary:
          `${r.nuggets} nuggets for ${r.topics} topics (${origin}, ${r.windows} windows, ${r.failed} failed)`,
        items: r.windows,
        failed: r.failed,
      };
    },
  });
  out.push({
    id: "judge:nuggets-label",
    stage: "judge",
    version: 1,
    params: { ...backendParams, window, keep: s.keep ?? 20 },
    deps: ["judge:nuggets-create"],
    clear: async (ws) => {
      await clearNuggetImportance(ws, origin);
    },
    run: async (ws) => {
      const r = await nug.labelNuggets(ws, {
        ...io,
        backend: await backendOf(ws),
        origin,
        window,
        keep: s.keep,
      });
      return {
        summary:
          `${r.labelled} labelled: ${r.vital} vital, ${r.okay} okay, ${r.failed} failed; ${r.dropped} past the top ${
            s.keep ?? 20
          } dropped`,
        items: r.labelled + r.failed,
        failed: r.failed,
      };
    },
  });
  const assignIds: string[] = [];
  for (const run of runs) {
    const i = ctx.answerRuns.indexOf(run);
    const id = `judge:nuggets-assign:${run}`;
    assignIds.push(id);
    out.push({
      id,
      stage: "judge",
      version: 1,
      params: { ...backendParams, window, run },
      deps: [
        "judge:nuggets-label",
        ...(i >= 0 && ctx.answerStages[i] ? [ctx.answerStages[i]] : []),
        ...(fileRuns.includes(run) ? ["judge:nuggets-answers"] : []),
      ],
      clear: async (ws) => {
        await clearNuggetAssignments(ws, { run, origin, judge });
      },
      run: async (ws) => {
        const r = await nug.assignNuggets(ws, {
          ...io,
          backend: await backendOf(ws),
          origin,
          runs: [run],
          window,
        });
        return {
          summary: `${r.labels} labels for ${
            r.answers - r.withoutNuggets
          } answers (${judge}); ${r.failed} failed`,
          items: r.labels + r.failed,
          failed: r.failed,
        };
      },
    });
  }
  out.push({
    id: "measure:nuggets",
    stage: "measure",
    // 2: the per-topic nugget counts and the failed labels are stored rows too.
    version: 2,
    params: { origin, judge, runs },
    deps: assignIds,
    clear: async (ws) => {
      // Its rows now and those of its last run (another origin or judge), so none is stale.
      const before = await previousParams<{ origin: string; judge: string }>(
        ws,
        "measure:nuggets",
      );
      await deleteMeasures(ws, {
        method: "nuggets",
        judgeSources: [
          { judge, source: origin },
          { judge: before.judge ?? judge, source: before.origin ?? origin },
          // The nugget counts (judge '').
          { judge: "", source: origin },
          { judge: "", source: before.origin ?? origin },
        ],
      });
    },
    run: async (ws) => {
      const r = await nug.scoreNuggets(ws, { origin, judge, runs });
      const counts = await readNuggetTopicCounts(ws, origin);
      const rows = nug.nuggetCountRows(counts, origin);
      await deleteMeasures(ws, {
        method: "nuggets",
        judgeSources: [{ judge: "", source: origin }],
      });
      await writeMeasures(ws, rows);
      const failed = counts.filter((c) => c.failedWindows > 0).map((c) => c.topicId).sort();
      if (failed.length) {
        ctx.onNote?.(
          "measure",
          `nuggets: creation failed for a window of ${failed.join(", ")} (nuggets not counted)`,
        );
      }
      const offline = online ? "" : " (offline backends)";
      return `strict_vital ${
        r.map((x) => `${x.run} ${x.mean.strictVital.toFixed(4)}`).join(", ")
      }${offline}; ${rows.length} nugget count rows`;
    },
  });
  return out;
}

/**
 * The nugget method's config section and stages: `judge:nuggets-answers` (when
 * answer files are given), `judge:nuggets-create` (creation from the topics'
 * relevant passages, or the import of a nugget file), `judge:nuggets-label`,
 * one `judge:nuggets-assign:<run>` per answer run and `measure:nuggets` (scores
 * into `measures`, method `nuggets`, judge `lexical-nuggets` offline or the
 * model, source `created:<model|offline>` or `file:<basename>`, with each
 * answer's and run's `nugget_labels_failed`; and the nugget counts
 * `nugget_passages` ... `nugget_kept` per topic and their totals on topic `all`,
 * run '' and judge '', see `nuggetCountRows`). With the
 * offline backend no model is called.
 *
 * @example
 * ```ts
 * import { NUGGET_STAGES } from "@lib/methods/nuggets/stages.ts";
 * const section = NUGGET_STAGES.parse({ window: 10 }, "experiment.json");
 * section.window; // 10
 * // The stages are declared through the method registry, which opens the backends:
 * // `methodStages("nuggets", section, ctx)` of `@lib/methods/mod.ts`.
 * ```
 */
export const NUGGET_STAGES: MethodStages<NuggetsSection, nug.NuggetBackend> = {
  key: "nuggets",
  parse: parseNuggetsSection,
  stages,
};
