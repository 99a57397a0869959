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
  readGenerationRunNames,
  saveAnnotationTask,
  type Workspace,
} from "@lib/store/mod.ts";

/** Task kinds, as `crux annotate create --task` accepts them. */
export const ANNOTATION_TASKS: readonly AnnotationTaskKind[] = [
  "answerability",
  "passages",
  "nuggets",
  "preference",
  "types",
];

/**
 * The answers of a `types` item (a sub-question of a complex question), with what
 * each means, as the form shows them.
 */
export const SUBQUESTION_TYPE_LABELS: [string, string][] = [
  ["core", "Core: the main question cannot be answered without it"],
  ["background", "Background: context that helps a reader follow the answer"],
  ["follow-up", "Follow-up: what a reader may ask next, beyond the main question"],
];

/** How units are handed to annotators (see {@linkcode createAnnotationTask}). */
export type StudyDesign = "cyclic" | "pairs";

/** Options of {@linkcode createAnnotationTask}. */
export interface AnnotationTaskOptions {
  task: AnnotationTaskKind;
  /** Annotator names (distinct, non-empty). */
  annotators: string[];
  /** Items (units) sampled per condition. Default 5. */
  perCondition?: number;
  /** Annotators per item. Default 2 (all annotators when fewer). */
  overlap?: number;
  /**
   * `cyclic` (default): unit j goes to annotators j..j+overlap-1; `pairs`: units go in
   * turn to every set of `overlap` annotators, so every pair shares units.
   */
  design?: StudyDesign;
  /** Units (the first sampled) that every annotator labels, before the rest. Default 0. */
  calibration?: number;
  /** Sampling seed. Default 42. */
  seed?: number;
  /** Deepest rank of a sampled passage (passages task). Default 10. */
  depth?: number;
  /** Replace a stored task of this kind and discard its labels. Default false. */
  replace?: boolean;
}

/** What {@linkcode createAnnotationTask} created. */
export interface CreatedAnnotationTask {
  /** Annotator -> secret token (only its hash is stored). */
  tokens: Map<string, string>;
  items: number;
  units: number;
  /** Conditions with nothing to sample, each with the reason (left out of the task). */
  leftOut: string[];
  /** Pairs of annotators that share no unit ("a-c"); agreement is undefined for them. */
  unsharedPairs: string[];
  /** Units each pair of annotators shares ("a-b" -> units), pairs in annotator order. */
  pairUnits: Map<string, number>;
  /** Most conditions a topic (or passage) is sampled in; 1 when each is in one only. */
  share: number;
  /** Units labelled by every annotator. */
  calibration: number;
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

/** One condition's candidates, keyed (a key may be shared between conditions). */
interface Pool<T> {
  condition: string;
  candidates: { key: string; value: T }[];
}

/**
 * Refuses a `--per-condition` larger than a condition's candidates, naming the
 * condition and the largest value every condition allows.
 */
function checkSize(pools: readonly Pool<unknown>[], n: number, what: string): void {
  const small = pools.filter((p) => p.candidates.length < n);
  if (!small.length) return;
  const largest = Math.min(...pools.map((p) => p.candidates.length));
  const named = small.slice(0, 3).map((p) => `"${p.condition}" has ${p.candidates.length}`)
    .join(", ") + (small.length > 3 ? ` (and ${small.length - 3} more conditions)` : "");
  throw new RangeError(
    `Condition ${named} ${what}, fewer than --per-condition ${n}; the largest ` +
      `--per-condition that works is ${largest} (or add topics)`,
  );
}

/**
 * Draws `n` candidates per condition so that a key (a topic, or a passage) is used
 * by as few conditions as possible: by one only when there are enough keys, else
 * by at most `share` (the smallest number that works). Candidates come in shuffled
 * order, so the draw is random; augmenting paths move earlier draws when a later
 * condition would otherwise run short.
 */
function allocate<T>(
  pools: readonly Pool<T>[],
  n: number,
  maxShare = pools.length,
): { picks: T[][]; share: number } | undefined {
  const keys = new Set(pools.flatMap((p) => p.candidates.map((c) => c.key)));
  for (let share = 1; share <= Math.max(1, maxShare); share++) {
    if (share * keys.size < n * pools.length) continue;
    const load = new Map<string, number[]>(); // key -> conditions holding it
    const held = pools.map(() => new Set<number>()); // condition -> candidate indexes
    const grab = (p: number, seen: Set<string>): boolean => {
      const cands = pools[p].candidates;
      // First a free key, then one whose holder can move to another key.
      for (const pass of [0, 1]) {
        for (let i = 0; i < cands.length; i++) {
          const key = cands[i].key;
          if (held[p].has(i) || seen.has(key)) continue;
          const holders = load.get(key) ?? [];
          if (holders.includes(p)) continue;
          if (pass === 0 && holders.length < share) {
            held[p].add(i);
            load.set(key, [...holders, p]);
            return true;
          }
          if (pass === 1) {
            seen.add(key);
            for (const q of holders) {
              const j = pools[q].candidates.findIndex((c) => c.key === key);
              if (grab(q, seen)) {
                held[q].delete(j);
                held[p].add(i);
                load.set(key, [...load.get(key)!.filter((x) => x !== q), p]);
                return true;
              }
            }
          }
        }
      }
      return false;
    };
    let ok = true;
    for (let round = 0; round < n && ok; round++) {
      for (let p = 0; p < pools.length && ok; p++) ok = grab(p, new Set());
    }
    if (ok) {
      return {
        picks: pools.map((p, k) =>
          [...held[k]].sort((a, b) => a - b).map((i) => p.candidates[i].value)
        ),
        share,
      };
    }
  }
  return undefined;
}

function units(
  s: AnnotationSources,
  o: Required<AnnotationTaskOptions>,
  random: () => number,
  generationRuns: readonly string[],
) {
  const n = o.perCondition;
  const subqs = Map.groupBy(s.subquestions, (q) => q.topicId);
  const reportsByRun = Map.groupBy(s.reports, (r) => r.run);
  const runs = [...reportsByRun.keys()].sort();
  const out: Unit[] = [];
  const leftOut: string[] = [];
  for (const run of generationRuns) {
    if (!reportsByRun.has(run) && o.task !== "passages" && o.task !== "types") {
      leftOut.push(`${run}: every report of this run is empty`);
    }
  }
  /** Pools with candidates; conditions without any are left out, with the reason. */
  const pools = <T>(all: Pool<T>[], none: string): Pool<T>[] => {
    for (const p of all) if (!p.candidates.length) leftOut.push(`${p.condition}: ${none}`);
    return all.filter((p) => p.candidates.length);
  };
  let share = 1;
  if (o.task === "answerability") {
    // A topic is in as few conditions as possible (one when there are enough topics),
    // so an annotator rarely labels two reports of one topic.
    const ps = pools(
      runs.map((run) => ({
        condition: run,
        candidates: shuffle(reportsByRun.get(run)!.filter((r) => subqs.has(r.topicId)), random)
          .map((r) => ({ key: r.topicId, value: r })),
      })),
      "no report on a topic with sub-questions",
    );
    checkSize(ps, n, "reports on topics with sub-questions");
    const drawn = allocate(ps, n)!; // any key may go to every condition: always drawn
    share = drawn.share;
    for (const r of drawn.picks.flat()) {
      out.push(subqs.get(r.topicId)!.map((q) => ({ ...r, questionId: q.questionId })));
    }
  } else if (o.task === "passages") {
    const byRun = Map.groupBy(s.rankings, (r) => r.run);
    const ps = pools(
      [...byRun.keys()].sort().map((run) => ({
        condition: run,
        candidates: shuffle(byRun.get(run)!.filter((r) => subqs.has(r.topicId)), random)
          .map((r) => ({ key: `${r.topicId}\0${r.passageId}`, value: r })),
      })),
      `no passage (rank <= ${o.depth}) on a topic with sub-questions`,
    );
    checkSize(ps, n, `passages (rank <= ${o.depth}) on topics with sub-questions`);
    // A passage is rated against its topic's sub-questions whichever run ranked it:
    // drawn for one run only.
    const drawn = allocate(ps, n, 1);
    if (!drawn) {
      let largest = n - 1;
      while (largest > 0 && !allocate(ps, largest, 1)) largest--;
      throw new RangeError(
        `The retrieval runs share their passages (rank <= ${o.depth}): no ${n} distinct ` +
          `passages for each of ${ps.length} runs; the largest --per-condition that works is ` +
          `${largest} (or raise --depth)`,
      );
    }
    for (const r of drawn.picks.flat()) out.push([{ topicId: r.topicId, passageId: r.passageId }]);
  } else if (o.task === "types") {
    // One condition: the topics with sub-questions; a unit is a topic's sub-questions.
    const ps = pools(
      [{
        condition: "topics",
        candidates: shuffle([...subqs.keys()].sort(), random).map((t) => ({ key: t, value: t })),
      }],
      "no topic has sub-questions",
    );
    checkSize(ps, n, "topics with sub-questions");
    for (const p of ps) {
      for (const { value: topicId } of p.candidates.slice(0, n)) {
        out.push(subqs.get(topicId)!.map((q) => ({ topicId, questionId: q.questionId })));
      }
    }
  } else if (o.task === "nuggets") {
    const byTopic = Map.groupBy(s.nuggets, (x) => x.topicId);
    const ps = pools(
      runs.map((run) => ({
        condition: run,
        candidates: shuffle(reportsByRun.get(run)!.filter((r) => byTopic.has(r.topicId)), random)
          .map((r) => ({ key: `${run}\0${r.topicId}`, value: r })),
      })),
      "no report on a topic with nuggets",
    );
    checkSize(ps, n, "reports on topics with nuggets");
    for (const p of ps) {
      for (const { value: r } of p.candidates.slice(0, n)) {
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
    const all: Pool<{ topicId: string }>[] = [];
    for (let a = 0; a < runs.length; a++) {
      for (let b = a + 1; b < runs.length; b++) {
        const topicsB = new Set(reportsByRun.get(runs[b])!.map((r) => r.topicId));
        all.push({
          condition: `${runs[a]} vs ${runs[b]}`,
          candidates: shuffle(
            reportsByRun.get(runs[a])!.filter((r) => topicsB.has(r.topicId)),
            random,
          ).map((r) => ({ key: r.topicId, value: r })),
        });
      }
    }
    const ps = pools(all, "no topic with reports of both runs");
    checkSize(ps, n, "topics with reports of both runs");
    for (const p of ps) {
      const [ra, rb] = p.condition.split(" vs ");
      for (const { value: r } of p.candidates.slice(0, n)) {
        const flip = random() < 0.5;
        out.push([{ topicId: r.topicId, run: flip ? rb : ra, runB: flip ? ra : rb }]);
      }
    }
  }
  if (!out.length) {
    throw new RangeError(
      `Nothing to sample for a ${o.task} task` + (leftOut.length ? ` (${leftOut.join("; ")})` : ""),
    );
  }
  return { out, leftOut, share };
}

/** Sets of `k` annotators (indexes), ordered so that each next set loads the least-loaded. */
function annotatorSets(n: number, k: number): number[][] {
  const sets: number[][] = [];
  const build = (from: number, acc: number[]) => {
    if (sets.length > 10000) {
      throw new RangeError(
        `--design pairs: too many sets of ${k} of ${n} annotators; use --design cyclic`,
      );
    }
    if (acc.length === k) return void sets.push(acc);
    for (let i = from; i < n; i++) build(i + 1, [...acc, i]);
  };
  build(0, []);
  const load = new Array<number>(n).fill(0);
  const ordered: number[][] = [];
  const left = [...sets];
  while (left.length) {
    let best = 0, bestLoad = Infinity;
    left.forEach((set, i) => {
      const l = set.reduce((s, a) => s + load[a], 0);
      if (l < bestLoad) [best, bestLoad] = [i, l];
    });
    const [set] = left.splice(best, 1);
    for (const a of set) load[a]++;
    ordered.push(set);
  }
  return ordered;
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
 * (passages), the pairs of generation runs (preference) or the topics (types: a
 * unit is a topic's sub-questions, each typed core, background or follow-up against
 * the topic's request); `perCondition` units are
 * drawn from each (a condition with nothing to draw, e.g. a run whose reports are
 * all empty, is left out and named). A topic (answerability) is drawn in one
 * condition only when there are enough topics, else in as few as possible
 * (`share`); a passage (passages) in one retrieval run only. Units are shuffled; the first `calibration` go to every
 * annotator; then unit `j` goes to annotators `j, j+1, ..., j+overlap-1` (mod their
 * number; `design: "cyclic"`) or to the `j`-th set of `overlap` annotators in a
 * balanced cycle through all such sets (`design: "pairs"`: every pair shares units
 * once there are as many units as sets). Pairs left without a shared unit are named.
 * Reports are placed so that an annotator gets two reports of one topic only when
 * that cannot be avoided.
 *
 * @param ws The workspace (read-write).
 * @param opts Task, annotators, sample size, overlap, seed.
 * @returns Each annotator's secret token (only its hash is stored), the counts, the
 *   conditions left out and the pairs of annotators sharing no unit.
 * @throws {RangeError} On bad options, too few candidates (naming the condition and the
 *   largest `perCondition` that works), or a task of this kind already stored without
 *   `replace`.
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
): Promise<CreatedAnnotationTask> {
  const o: Required<AnnotationTaskOptions> = {
    perCondition: 5,
    seed: 42,
    depth: 10,
    replace: false,
    ...opts,
    design: opts.design ?? "cyclic",
    calibration: opts.calibration ?? 0,
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
  if (o.design !== "cyclic" && o.design !== "pairs") {
    throw new RangeError(`--design must be cyclic or pairs, got "${o.design}"`);
  }
  if (!Number.isInteger(o.calibration) || o.calibration < 0) {
    throw new RangeError(`--calibration must be 0 or more, got ${o.calibration}`);
  }
  if (!o.replace && await hasAnnotationTask(ws, o.task)) {
    const labels = (await readAnnotationLabels(ws, o.task)).length;
    throw new RangeError(
      `Workspace "${ws.dir}" already holds a ${o.task} task with ${labels} label(s); export ` +
        "them first, then pass --replace to discard the task and its labels",
    );
  }
  const random = seededRandom(o.seed);
  const generationRuns = await readGenerationRunNames(ws);
  const drawn = units(await readAnnotationSources(ws, o.depth), o, random, generationRuns);
  const shuffled = shuffle(drawn.out, random);
  if (o.calibration > shuffled.length) {
    throw new RangeError(
      `--calibration ${o.calibration} is more than the ${shuffled.length} units sampled; ` +
        `the largest value that works is ${shuffled.length}`,
    );
  }
  const sets = o.design === "pairs" ? annotatorSets(names.length, o.overlap) : [];
  const holders = shuffled.map((_, j) => {
    const r = j - o.calibration;
    return r < 0
      ? names
      : o.design === "pairs"
      ? sets[r % sets.length].map((a) => names[a])
      : Array.from({ length: o.overlap }, (_, i) => names[(r + i) % names.length]);
  });
  // Reports: units of the most frequent topics first, each to the first open place in
  // the design none of whose annotators has its topic yet, so nobody reads two reports
  // of a topic while that can be avoided. Passages and sub-questions of one topic may
  // go together: they keep the shuffled order.
  let sampled: Unit[] = shuffled;
  if (o.task !== "passages" && o.task !== "types") {
    const count = new Map<string, number>();
    const first = new Map<string, number>();
    shuffled.forEach((u, i) => {
      const t = u[0].topicId;
      count.set(t, (count.get(t) ?? 0) + 1);
      if (!first.has(t)) first.set(t, i);
    });
    // A topic's units together, the most frequent topics first, else in shuffled order.
    const key = (u: Unit) => [-count.get(u[0].topicId)!, first.get(u[0].topicId)!];
    const order = shuffled.map((u, i) => ({ u, i })).sort((x, y) => {
      const [a, b] = [key(x.u), key(y.u)];
      return a[0] - b[0] || a[1] - b[1] || x.i - y.i;
    });
    const seen = new Map(names.map((a) => [a, new Set<string>()]));
    const placed: Unit[] = new Array(shuffled.length);
    const open = holders.map((_, j) => j);
    for (const { u } of order) {
      const topic = u[0].topicId;
      const k = Math.max(
        0,
        open.findIndex((j) => !holders[j].some((a) => seen.get(a)!.has(topic))),
      );
      const [j] = open.splice(k, 1);
      placed[j] = u;
      for (const a of holders[j]) seen.get(a)!.add(topic);
    }
    sampled = placed;
  }
  const items: AnnotationItem[] = [];
  const queues = new Map(names.map((a) => [a, [] as string[]]));
  const ids = new Set<string>();
  const shared = new Map<string, number>();
  sampled.forEach((unit, j) => {
    const unitId = `u${j + 1}`;
    const mine = holders[j];
    for (const a of mine) {
      for (const b of mine) {
        if (a !== b) shared.set(`${a}\0${b}`, (shared.get(`${a}\0${b}`) ?? 0) + 1);
      }
    }
    for (const part of unit) {
      let id: string;
      do id = Math.floor(random() * 0xffffffff).toString(16).padStart(8, "0"); while (ids.has(id));
      ids.add(id);
      items.push({ ...part, itemId: id, unit: unitId, position: items.length });
      for (const a of mine) queues.get(a)!.push(id);
    }
  });
  const pairUnits = new Map<string, number>();
  names.forEach((a, i) =>
    names.slice(i + 1).forEach((b) => pairUnits.set(`${a}-${b}`, shared.get(`${a}\0${b}`) ?? 0))
  );
  const unsharedPairs = [...pairUnits].filter(([, k]) => k === 0).map(([p]) => p);
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
  return {
    tokens,
    items: items.length,
    units: sampled.length,
    leftOut: drawn.leftOut,
    unsharedPairs,
    pairUnits,
    share: drawn.share,
    calibration: o.calibration,
  };
}
