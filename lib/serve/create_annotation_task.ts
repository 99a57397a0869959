/**
 * `createAnnotationTask`: samples the items of a human annotation study, seeded,
 * assigns them to named annotators with an overlap for agreement, gives every
 * item an opaque id (run names are never shown) and every annotator a secret token.
 *
 * @module
 */
import { seededRandom } from "@lib/metrics/mod.ts";
import {
  type AnnotationItem,
  type AnnotationSources,
  type AnnotationTaskKind,
  hasAnnotationTask,
  readAnnotationLabels,
  readAnnotationSources,
  saveAnnotationTask,
  type Workspace,
} from "@lib/store/mod.ts";

/** Task kinds, as `crux annotate create --task` accepts them. */
export const ANNOTATION_TASKS: readonly AnnotationTaskKind[] = [
  "answerability",
  "passages",
  "nuggets",
  "preference",
];

/** Options of {@linkcode createAnnotationTask}. */
export interface AnnotationTaskOptions {
  task: AnnotationTaskKind;
  /** Annotator names (distinct, non-empty). */
  annotators: string[];
  /** Items (units) sampled per condition. Default 5. */
  perCondition?: number;
  /** Annotators per item. Default 2 (all annotators when fewer). */
  overlap?: number;
  /** Sampling seed. Default 42. */
  seed?: number;
  /** Deepest rank of a sampled passage (passages task). Default 10. */
  depth?: number;
  /** Replace a stored task of this kind and discard its labels. Default false. */
  replace?: boolean;
}

/** A unit: items labelled together by the same annotators (a report's sub-questions). */
type Unit = Omit<AnnotationItem, "itemId" | "unit" | "position">[];

function shuffle<T>(values: readonly T[], random: () => number): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function take<T>(pool: T[], n: number, condition: string, what: string): T[] {
  if (pool.length < n) {
    throw new RangeError(
      `Condition "${condition}" has ${pool.length} ${what} left to sample, fewer than ` +
        `--per-condition ${n}; lower --per-condition or add topics`,
    );
  }
  return pool.slice(0, n);
}

function units(s: AnnotationSources, o: Required<AnnotationTaskOptions>, random: () => number) {
  const n = o.perCondition;
  const subqs = Map.groupBy(s.subquestions, (q) => q.topicId);
  const reportsByRun = Map.groupBy(s.reports, (r) => r.run);
  const runs = [...reportsByRun.keys()].sort();
  const out: Unit[] = [];
  if (o.task === "answerability") {
    // A topic is shown in one condition only, so each annotator labels one report per topic.
    const used = new Set<string>();
    for (const run of runs) {
      const pool = shuffle(
        reportsByRun.get(run)!.filter((r) => subqs.has(r.topicId) && !used.has(r.topicId)),
        random,
      );
      for (const r of take(pool, n, run, "reports on topics with sub-questions")) {
        used.add(r.topicId);
        out.push(subqs.get(r.topicId)!.map((q) => ({ ...r, questionId: q.questionId })));
      }
    }
  } else if (o.task === "passages") {
    const used = new Set<string>();
    const byRun = Map.groupBy(s.rankings, (r) => r.run);
    for (const run of [...byRun.keys()].sort()) {
      const pool = shuffle(
        byRun.get(run)!.filter((r) =>
          subqs.has(r.topicId) && !used.has(`${r.topicId}\0${r.passageId}`)
        ),
        random,
      );
      for (const r of take(pool, n, run, `passages (rank <= ${o.depth}) not already sampled`)) {
        used.add(`${r.topicId}\0${r.passageId}`);
        out.push([{ topicId: r.topicId, passageId: r.passageId }]);
      }
    }
  } else if (o.task === "nuggets") {
    const byTopic = Map.groupBy(s.nuggets, (x) => x.topicId);
    for (const run of runs) {
      const pool = shuffle(reportsByRun.get(run)!.filter((r) => byTopic.has(r.topicId)), random);
      for (const r of take(pool, n, run, "reports on topics with nuggets")) {
        const nuggets = byTopic.get(r.topicId)!;
        const origin = nuggets[0].origin;
        out.push(
          nuggets.filter((x) => x.origin === origin).map((x) => ({
            ...r,
            origin,
            ordinal: x.ordinal,
          })),
        );
      }
    }
  } else {
    if (runs.length < 2) throw new RangeError("A preference task needs two runs with reports");
    for (let a = 0; a < runs.length; a++) {
      for (let b = a + 1; b < runs.length; b++) {
        const topicsB = new Set(reportsByRun.get(runs[b])!.map((r) => r.topicId));
        const pool = shuffle(
          reportsByRun.get(runs[a])!.filter((r) => topicsB.has(r.topicId)),
          random,
        );
        for (const r of take(pool, n, `${runs[a]} vs ${runs[b]}`, "topics")) {
          const flip = random() < 0.5;
          out.push([{
            topicId: r.topicId,
            run: flip ? runs[b] : runs[a],
            runB: flip ? runs[a] : runs[b],
          }]);
        }
      }
    }
  }
  return out;
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * SHA-256 (hex) of a token, as stored in the workspace.
 *
 * @param token The token.
 * @returns Lowercase hex digest.
 */
export async function tokenHash(token: string): Promise<string> {
  return hex(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))),
  );
}

/**
 * Samples and stores a task; a stored task of the same kind (and its labels) is replaced
 * only with `replace`.
 * Conditions are the generation runs (answerability, nuggets), the retrieval runs
 * (passages) or the pairs of generation runs (preference); `perCondition` units are
 * drawn from each, units are shuffled and unit `j` goes to annotators `j, j+1, ...,
 * j+overlap-1` (mod their number).
 *
 * @param ws The workspace (read-write).
 * @param opts Task, annotators, sample size, overlap, seed.
 * @returns Each annotator's secret token (only its hash is stored) and the item count.
 * @throws {RangeError} On bad options, too few candidates (naming what is missing), or a
 *   task of this kind already stored without `replace`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * import { createAnnotationTask } from "@lib/serve/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * // two generation runs with reports on two topics (normally written by `crux run`)
 * await ws.upsert("generations", ["rag", "direct"].flatMap((run) =>
 *   ["sample-01", "sample-02"].map((topicId) => ({ run, topicId, text: `A ${run} report.` }))
 * ));
 * const { tokens, units } = await createAnnotationTask(ws, {
 *   task: "preference", annotators: ["a", "b"], perCondition: 2,
 * });
 * assert.deepEqual([...tokens.keys()], ["a", "b"]); // each annotator's secret token
 * assert.equal(units, 2); // one pair of runs, two topics
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function createAnnotationTask(
  ws: Workspace,
  opts: AnnotationTaskOptions,
): Promise<{ tokens: Map<string, string>; items: number; units: number }> {
  const o: Required<AnnotationTaskOptions> = {
    perCondition: 5,
    seed: 42,
    depth: 10,
    replace: false,
    ...opts,
    overlap: opts.overlap ?? Math.min(2, opts.annotators.length),
  };
  if (!ANNOTATION_TASKS.includes(o.task)) {
    throw new RangeError(`Unknown task "${o.task}"; use one of ${ANNOTATION_TASKS.join(", ")}`);
  }
  const names = o.annotators;
  if (names.length === 0 || names.some((a) => !/^[\w.-]+$/.test(a))) {
    throw new RangeError(
      `Annotator names must be letters, digits, "_", "-" or ".", got "${names.join(",")}"`,
    );
  }
  if (new Set(names).size !== names.length) {
    throw new RangeError(`Annotator names repeat: "${names.join(",")}"`);
  }
  if (!Number.isInteger(o.overlap) || o.overlap < 1 || o.overlap > names.length) {
    throw new RangeError(
      `--overlap must be 1 to ${names.length} (the annotators), got ${o.overlap}`,
    );
  }
  if (!Number.isInteger(o.perCondition) || o.perCondition < 1) {
    throw new RangeError(`--per-condition must be a positive integer, got ${o.perCondition}`);
  }
  if (!o.replace && await hasAnnotationTask(ws, o.task)) {
    const labels = (await readAnnotationLabels(ws, o.task)).length;
    throw new RangeError(
      `Workspace "${ws.dir}" already holds a ${o.task} task with ${labels} label(s); export ` +
        "them first, then pass --replace to discard the task and its labels",
    );
  }
  const random = seededRandom(o.seed);
  const sampled = shuffle(units(await readAnnotationSources(ws, o.depth), o, random), random);
  const items: AnnotationItem[] = [];
  const queues = new Map(names.map((a) => [a, [] as string[]]));
  const ids = new Set<string>();
  sampled.forEach((unit, j) => {
    const unitId = `u${j + 1}`;
    const mine = Array.from({ length: o.overlap }, (_, r) => names[(j + r) % names.length]);
    for (const part of unit) {
      let id: string;
      do id = Math.floor(random() * 0xffffffff).toString(16).padStart(8, "0"); while (ids.has(id));
      ids.add(id);
      items.push({ ...part, itemId: id, unit: unitId, position: items.length });
      for (const a of mine) queues.get(a)!.push(id);
    }
  });
  const tokens = new Map<string, string>();
  const hashes = new Map<string, string>();
  for (const a of names) {
    const token = hex(crypto.getRandomValues(new Uint8Array(24)));
    tokens.set(a, token);
    hashes.set(a, await tokenHash(token));
  }
  await saveAnnotationTask(ws, {
    task: o.task,
    seed: o.seed,
    perCondition: o.perCondition,
    overlap: o.overlap,
    items,
    tokens: hashes,
    queues,
  });
  return { tokens, items: items.length, units: sampled.length };
}
