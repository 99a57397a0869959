/**
 * Reads and writes of human annotation studies (tables in `schema_annotations.ts`):
 * what can be sampled, a task with its items and queues, an annotator found by the
 * hash of their token, their queue with progress, one item's content, and labels.
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";

/** Task kinds. */
export type AnnotationTaskKind =
  | "answerability"
  | "passages"
  | "nuggets"
  | "preference"
  | "types";

/** What a study can sample from: reports, rankings, nuggets and sub-questions. */
export interface AnnotationSources {
  /** Generated reports (`run` a generation run) with text. */
  reports: { run: string; topicId: string }[];
  /** Ranked passages with text, rank <= `depth`. */
  rankings: { run: string; topicId: string; passageId: string; rank: number }[];
  /** Kept nuggets, by topic, origin and ordinal. */
  nuggets: { topicId: string; origin: string; ordinal: number }[];
  /** Sub-questions in ordinal order. */
  subquestions: { topicId: string; questionId: string; ordinal: number }[];
}

/** One item of a task (see the `annotation_items` table). */
export interface AnnotationItem {
  itemId: string;
  unit: string;
  position: number;
  topicId: string;
  run?: string;
  runB?: string;
  passageId?: string;
  questionId?: string;
  origin?: string;
  ordinal?: number;
}

/** A task ready to be stored. */
export interface AnnotationTaskRecord {
  task: AnnotationTaskKind;
  seed: number;
  perCondition: number;
  overlap: number;
  items: AnnotationItem[];
  /** Annotator -> SHA-256 hex of the token. */
  tokens: Map<string, string>;
  /** Annotator -> item ids in queue order. */
  queues: Map<string, string[]>;
}

/** An item of an annotator's queue with the label given, if any. */
export interface QueuedItem extends AnnotationItem {
  label?: string;
  span?: string;
}

/** A stored label with its item, for export. */
export interface StoredLabel extends AnnotationItem {
  annotator: string;
  label: string;
  span?: string;
}

/**
 * Everything a study can sample from.
 *
 * @param ws The workspace.
 * @param depth Deepest rank of a passage that may be sampled.
 * @returns Reports, rankings, nuggets and sub-questions, each sorted.
 * @example
 * ```ts
 * import { importSample, openWorkspace, readAnnotationSources } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const { reports } = await readAnnotationSources(ws, 10);
 * ```
 */
export async function readAnnotationSources(
  ws: Workspace,
  depth: number,
): Promise<AnnotationSources> {
  return {
    reports: await ws.query(
      `SELECT run, topic_id FROM generations WHERE text IS NOT NULL AND text <> ''
       ORDER BY run, topic_id`,
    ),
    rankings: await ws.query(
      `SELECT r.run, r.topic_id, r.doc_id AS passage_id, r.rank FROM runs r
       JOIN passages p ON p.passage_id = r.doc_id
       WHERE r.rank <= $1 ORDER BY r.run, r.topic_id, r.rank, r.doc_id`,
      [depth],
    ),
    nuggets: await ws.query(
      `SELECT topic_id, origin, ordinal FROM nuggets WHERE kept IS NOT FALSE
       ORDER BY topic_id, origin, ordinal`,
    ),
    subquestions: await ws.query(
      `SELECT topic_id, question_id, ordinal FROM questions WHERE kind = 'subquestion'
       ORDER BY topic_id, ordinal, question_id`,
    ),
  };
}

/**
 * Whether a task of this kind is stored.
 *
 * @param ws The workspace.
 * @param task The task kind.
 * @returns True when stored.
 */
export async function hasAnnotationTask(ws: Workspace, task: string): Promise<boolean> {
  return (await ws.query("SELECT 1 FROM annotation_tasks WHERE task = $1", [task])).length > 0;
}

/**
 * Stores a task (replacing a stored task of the same kind and its labels) in one
 * transaction.
 *
 * @param ws The workspace (read-write).
 * @param t The task, its items, hashed tokens and queues.
 */
export async function saveAnnotationTask(ws: Workspace, t: AnnotationTaskRecord): Promise<void> {
  await ws.transaction(async () => {
    for (
      const table of [
        "annotation_tasks",
        "annotation_items",
        "annotators",
        "annotation_queue",
        "annotation_labels",
      ]
    ) await ws.exec(`DELETE FROM ${table} WHERE task = $1`, [t.task]);
    await ws.insert("annotation_tasks", [{
      task: t.task,
      seed: t.seed,
      perCondition: t.perCondition,
      overlap: t.overlap,
      createdAt: new Date(),
    }]);
    await ws.insert("annotation_items", t.items.map((i) => ({ task: t.task, ...i })));
    await ws.insert(
      "annotators",
      [...t.tokens].map(([annotator, tokenSha256]) => ({ task: t.task, annotator, tokenSha256 })),
    );
    await ws.insert(
      "annotation_queue",
      [...t.queues].flatMap(([annotator, ids]) =>
        ids.map((itemId, position) => ({ task: t.task, annotator, itemId, position }))
      ),
    );
  });
}

/**
 * The annotator whose token hashes to `sha256`.
 *
 * @param ws The workspace.
 * @param sha256 SHA-256 hex of the token.
 * @returns The task and annotator, or undefined for an unknown token.
 */
export async function readAnnotatorByToken(
  ws: Workspace,
  sha256: string,
): Promise<{ task: AnnotationTaskKind; annotator: string } | undefined> {
  const [row] = await ws.query<{ task: AnnotationTaskKind; annotator: string }>(
    "SELECT task, annotator FROM annotators WHERE token_sha256 = $1",
    [sha256],
  );
  return row;
}

const ITEM_COLUMNS = `i.item_id, i.unit, i.position, i.topic_id, i.run, i.run_b, i.passage_id,
  i.question_id, i.origin, i.ordinal`;

function clean<T extends object>(row: T): T {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as T;
}

/**
 * One annotator's queue in order, each item with its label when given.
 *
 * @param ws The workspace.
 * @param task The task kind.
 * @param annotator The annotator.
 * @returns The queue (empty for an unknown annotator).
 */
export async function readAnnotatorQueue(
  ws: Workspace,
  task: string,
  annotator: string,
): Promise<QueuedItem[]> {
  const rows = await ws.query<QueuedItem>(
    `SELECT ${ITEM_COLUMNS}, l.label, l.span FROM annotation_queue q
     JOIN annotation_items i ON i.task = q.task AND i.item_id = q.item_id
     LEFT JOIN annotation_labels l
       ON l.task = q.task AND l.annotator = q.annotator AND l.item_id = q.item_id
     WHERE q.task = $1 AND q.annotator = $2 ORDER BY q.position`,
    [task, annotator],
  );
  return rows.map(clean);
}

/**
 * Saves (or replaces) one label at once.
 *
 * @param ws The workspace (read-write).
 * @param l Task, annotator, item, label and the supporting span.
 */
export async function saveAnnotationLabel(
  ws: Workspace,
  l: { task: string; annotator: string; itemId: string; label: string; span?: string },
): Promise<void> {
  await saveAnnotationLabels(ws, l.task, l.annotator, [l]);
}

/**
 * Saves (or replaces) the labels of one annotator's page (a unit: a report's
 * sub-questions, an answer's facts) in one transaction: after a crash the
 * workspace holds all of them or none of the new ones.
 *
 * @param ws The workspace (read-write).
 * @param task The task kind.
 * @param annotator The annotator.
 * @param labels Item, label and the supporting span of each answer.
 * @example
 * ```ts
 * import { openWorkspace, readAnnotationLabels, saveAnnotationLabels } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await saveAnnotationLabels(ws, "answerability", "a", [
 *   { itemId: "i1", label: "1", span: "The answer is here." },
 *   { itemId: "i2", label: "0" },
 * ]);
 * ws.close();
 * ```
 */
export async function saveAnnotationLabels(
  ws: Workspace,
  task: string,
  annotator: string,
  labels: readonly { itemId: string; label: string; span?: string }[],
): Promise<void> {
  if (labels.length === 0) return;
  const labelledAt = new Date();
  const rows = labels.map((l) => ({
    task,
    annotator,
    itemId: l.itemId,
    label: l.label,
    span: l.span ?? null,
    labelledAt,
  }));
  await ws.transaction(() => ws.upsert("annotation_labels", rows));
}

/**
 * Every label of a task with its item and annotator, ordered by annotator and item.
 *
 * @param ws The workspace.
 * @param task The task kind.
 * @returns The labels.
 */
export async function readAnnotationLabels(ws: Workspace, task: string): Promise<StoredLabel[]> {
  const rows = await ws.query<StoredLabel>(
    `SELECT l.annotator, ${ITEM_COLUMNS}, l.label, l.span FROM annotation_labels l
     JOIN annotation_items i ON i.task = l.task AND i.item_id = l.item_id
     WHERE l.task = $1 ORDER BY l.annotator, i.position`,
    [task],
  );
  return rows.map(clean);
}

/**
 * The items and annotators of a task.
 *
 * @param ws The workspace.
 * @param task The task kind.
 * @returns Items in order and annotators by name.
 */
export async function readAnnotationTask(
  ws: Workspace,
  task: string,
): Promise<{ items: AnnotationItem[]; annotators: string[] }> {
  const made = await ws.query(
    "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND table_name = 'annotators'",
  );
  // A workspace last opened read-write before annotation tables existed has none yet.
  if (made.length === 0) return { items: [], annotators: [] };
  const items = (await ws.query<AnnotationItem>(
    `SELECT ${ITEM_COLUMNS} FROM annotation_items i WHERE i.task = $1 ORDER BY i.position`,
    [task],
  )).map(clean);
  const annotators = (await ws.query<{ annotator: string }>(
    "SELECT annotator FROM annotators WHERE task = $1 ORDER BY annotator",
    [task],
  )).map((r) => r.annotator);
  return { items, annotators };
}

/** Texts shown with an item. */
export interface ItemTexts {
  request?: string;
  report?: string;
  reportB?: string;
  passage?: string;
  nugget?: string;
  nuggetImportance?: string;
  /** The topic's sub-questions in order. */
  subquestions: { questionId: string; text: string }[];
}

/**
 * The texts an item shows: the topic's request and sub-questions, the report(s),
 * the passage or the nugget.
 *
 * @param ws The workspace.
 * @param item The item.
 * @returns The texts (absent when the workspace has none).
 */
export async function readItemTexts(ws: Workspace, item: AnnotationItem): Promise<ItemTexts> {
  const one = async (sql: string, params: (string | number)[]) =>
    (await ws.query<{ text: string | null }>(sql, params))[0]?.text ?? undefined;
  const gen = "SELECT text FROM generations WHERE run = $1 AND topic_id = $2";
  const out: ItemTexts = {
    request: await one("SELECT request AS text FROM topics WHERE topic_id = $1", [item.topicId]),
    subquestions: await ws.query(
      `SELECT question_id, text FROM questions WHERE topic_id = $1 AND kind = 'subquestion'
       ORDER BY ordinal, question_id`,
      [item.topicId],
    ),
  };
  if (item.run) out.report = await one(gen, [item.run, item.topicId]);
  if (item.runB) out.reportB = await one(gen, [item.runB, item.topicId]);
  if (item.passageId) {
    out.passage = await one("SELECT text FROM passages WHERE passage_id = $1", [item.passageId]);
  }
  if (item.origin !== undefined && item.ordinal !== undefined) {
    const [n] = await ws.query<{ text: string; importance: string | null }>(
      "SELECT text, importance FROM nuggets WHERE topic_id = $1 AND origin = $2 AND ordinal = $3",
      [item.topicId, item.origin, item.ordinal],
    );
    if (n) {
      out.nugget = n.text;
      if (n.importance) out.nuggetImportance = n.importance;
    }
  }
  return out;
}
