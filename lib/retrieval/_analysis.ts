/**
 * Analysis of the documents of an index build, shared between the calling
 * thread and worker threads; private to `@lib/retrieval`.
 *
 * Each encoder (the calling thread's, each worker's) numbers the terms it meets
 * in its own order. Batches are taken back in document order and their ids
 * renumbered to the build's numbering: a term gets the next number when the
 * first batch using it is taken. An encoder lists its new terms in the order
 * they first occur in the batch, and a term new to the build is new to that
 * encoder, so the build's numbering is order of first appearance over the whole
 * input, as one encoder reading every document in turn would give.
 */
import { TermEncoder } from "../text/term_encoder.ts";
import { U32Buffer } from "./_growable.ts";

/** Throws when a document's text is not a string, naming the document (`d` counts from 0). */
export function checkText(text: unknown, d: number, id: string): void {
  if (typeof text !== "string") {
    throw new Error(
      `Cannot index document number ${d + 1} (id ${JSON.stringify(id)}): its text is ${
        text === null ? "null" : typeof text
      }, not a string`,
    );
  }
}

/** The analyzed terms of a batch of documents, numbered by the encoder that analyzed them. */
export interface EncodedBatch {
  /** Term ids of every document, back to back. */
  ids: Int32Array<ArrayBuffer>;
  /** End of each document's ids in `ids`. */
  ends: Uint32Array<ArrayBuffer>;
  /** Terms new to the encoder in this batch, in the order they first occur (ids follow on). */
  terms: string[];
}

/** Encodes texts with one {@link TermEncoder} (shared by the calling thread and workers). */
export class TextBatcher {
  readonly #encoder = new TermEncoder();
  readonly #tokens: number[] = [];
  #known = 0;

  encode(texts: string[]): EncodedBatch {
    const tokens = this.#tokens;
    tokens.length = 0;
    const ends = new Uint32Array(texts.length);
    for (let i = 0; i < texts.length; i++) {
      this.#encoder.encode(texts[i], tokens);
      ends[i] = tokens.length;
    }
    const terms = this.#encoder.terms.slice(this.#known);
    this.#known = this.#encoder.terms.length;
    return { ids: Int32Array.from(tokens), ends, terms };
  }
}

/** Encodes in a worker thread; replies come in the order the batches were sent. */
export class WorkerEncoder {
  readonly #worker: Worker;
  readonly #waiting: { resolve: (b: EncodedBatch) => void; reject: (e: Error) => void }[] = [];
  #failure: Error | undefined;

  constructor() {
    this.#worker = new Worker(new URL("./_analysis_worker.ts", import.meta.url).href, {
      type: "module",
    });
    this.#worker.onmessage = (event: MessageEvent<EncodedBatch | { error: string }>) => {
      const next = this.#waiting.shift();
      if ("error" in event.data) {
        this.#fail(new Error(`Analysis worker failed: ${event.data.error}`), next);
      } else next?.resolve(event.data);
    };
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#fail(new Error(`Analysis worker failed: ${event.message}`));
    };
  }

  /** Batches sent and not answered yet. */
  get pending(): number {
    return this.#waiting.length;
  }

  #fail(error: Error, first?: { reject: (e: Error) => void }): void {
    this.#failure ??= error;
    first?.reject(error);
    for (const w of this.#waiting.splice(0)) w.reject(error);
    this.#worker.terminate();
  }

  encode(texts: string[]): Promise<EncodedBatch> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#worker.postMessage({ texts });
    });
  }

  close(): void {
    this.#worker.terminate();
    const error = new Error("Analysis worker closed");
    for (const w of this.#waiting.splice(0)) w.reject(error);
  }
}

/** A batch queued for analysis, in document order. */
interface Queued {
  source: number;
  reply: Promise<EncodedBatch>;
  batch?: EncodedBatch;
}

/** Batches a worker may hold before the calling thread analyzes the next one itself. */
const PER_WORKER = 3;

/**
 * Analyzes batches of documents in order with up to `workers` worker threads
 * and the calling thread: a batch goes to the least busy worker, or is analyzed
 * at once on the calling thread when every worker holds {@link PER_WORKER}
 * batches (or there is no worker). Batches come back in the order they were
 * added, with ids in the build's numbering ({@link BatchAnalysis.terms}).
 */
export class BatchAnalysis {
  /** Every term met so far, by the build's id. */
  readonly terms: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #local = new TextBatcher();
  readonly #workers: WorkerEncoder[] = [];
  /** Per source (0 = this thread, then the workers): its id to the build's id. */
  readonly #remaps: U32Buffer[] = [new U32Buffer(1 << 10)];
  readonly #queue: Queued[] = [];
  readonly #maxWorkers: number;

  /** @param workers Worker threads to start, at the first batch sent to one (0: none). */
  constructor(workers: number) {
    this.#maxWorkers = workers;
  }

  /** Worker threads started so far. */
  get workers(): number {
    return this.#workers.length;
  }

  /** Batches added and not taken yet. */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Adds the next batch. `local` analyzes it on this thread whatever the
   * workers' load (a small input never starts a worker).
   */
  add(texts: string[], local = false): void {
    let source = 0;
    if (!local && this.#maxWorkers > 0) {
      if (this.#workers.length < this.#maxWorkers) {
        this.#workers.push(new WorkerEncoder());
        this.#remaps.push(new U32Buffer(1 << 10));
      }
      let best = 0;
      for (let w = 1; w < this.#workers.length; w++) {
        if (this.#workers[w].pending < this.#workers[best].pending) best = w;
      }
      if (this.#workers[best].pending < PER_WORKER) source = best + 1;
    }
    if (source === 0) {
      const batch = this.#local.encode(texts);
      this.#queue.push({ source, reply: Promise.resolve(batch), batch });
      return;
    }
    const entry: Queued = { source, reply: this.#workers[source - 1].encode(texts) };
    entry.reply.then((b) => entry.batch = b, () => {}); // a failure is thrown by take()
    this.#queue.push(entry);
  }

  /** The next batch in order if it is analyzed already, else undefined. */
  ready(): EncodedBatch | undefined {
    const head = this.#queue[0];
    if (!head?.batch) return undefined;
    this.#queue.shift();
    return this.#renumber(head.source, head.batch);
  }

  /** The next batch in order, once analyzed (undefined when none is queued). */
  async take(): Promise<EncodedBatch | undefined> {
    const head = this.#queue.shift();
    if (!head) return undefined;
    return this.#renumber(head.source, head.batch ?? await head.reply);
  }

  #renumber(source: number, batch: EncodedBatch): EncodedBatch {
    const remap = this.#remaps[source];
    for (const term of batch.terms) {
      let id = this.#ids.get(term);
      if (id === undefined) {
        id = this.terms.length;
        this.terms.push(term);
        this.#ids.set(term, id);
      }
      remap.push(id);
    }
    const map = remap.data;
    const ids = batch.ids;
    for (let k = 0; k < ids.length; k++) ids[k] = map[ids[k]];
    return { ids, ends: batch.ends, terms: [] };
  }

  /** Stops the workers; batches not taken are dropped. */
  close(): void {
    for (const w of this.#workers) w.close();
    this.#queue.length = 0;
  }
}

/**
 * Waits for one turn of the event loop, so that messages that arrived (the
 * workers' answers) are delivered: about 10 µs through a message channel, where
 * `setTimeout(0)` takes a millisecond or more.
 */
class EventTurn {
  #channel: MessageChannel | undefined;
  #waiting: (() => void) | undefined;

  next(): Promise<void> {
    if (!this.#channel) {
      this.#channel = new MessageChannel();
      this.#channel.port1.onmessage = () => {
        const resume = this.#waiting;
        this.#waiting = undefined;
        resume?.();
      };
    }
    const channel = this.#channel;
    return new Promise((resolve) => {
      this.#waiting = resolve;
      channel.port2.postMessage(null);
    });
  }

  close(): void {
    this.#channel?.port1.close();
    this.#channel?.port2.close();
    this.#channel = undefined;
  }
}

/** Default size of an analysis batch, in characters of text (about 1,500 passages). */
export const BATCH_CHARS = 1 << 20;

/** Analyzed batches waiting for inversion behind one still in a worker, at most. */
const MAX_QUEUED = 16;

/** Default number of analysis workers: the cores beside the calling thread's, at most 3. */
export function defaultAnalysisWorkers(): number {
  return Math.max(1, Math.min(3, (navigator.hardwareConcurrency ?? 2) - 1));
}

/** Options of {@link analyzeDocuments}. */
export interface AnalyzeOptions {
  /** Worker threads beside the calling one (default {@link defaultAnalysisWorkers}; 0: none). */
  workers?: number;
  /** Characters of text per batch (default {@link BATCH_CHARS}). */
  batchChars?: number;
  /**
   * Called with each document's id in input order, before its batch is analyzed
   * (a text that is not a string is then refused, naming the document).
   */
  onDocument: (id: string) => void;
  /**
   * Called with each analyzed batch in input order; `vocabSize` is the number of
   * terms known so far (every id is below it).
   */
  onBatch: (batch: EncodedBatch, vocabSize: number) => void;
}

/**
 * Analyzes documents in batches, in worker threads once the input is larger
 * than one batch (a smaller input is analyzed on the calling thread and starts
 * no worker), handing the batches back in input order.
 *
 * @returns The terms by id, in order of first appearance over the input.
 */
export async function analyzeDocuments(
  docs: Iterable<{ id: string; text: string }> | AsyncIterable<{ id: string; text: string }>,
  opts: AnalyzeOptions,
): Promise<string[]> {
  const batchChars = opts.batchChars ?? BATCH_CHARS;
  const analysis = new BatchAnalysis(opts.workers ?? defaultAnalysisWorkers());
  const terms = analysis.terms;
  const turn = new EventTurn();
  try {
    let texts: string[] = [];
    let chars = 0;
    let d = 0;
    for await (const { id, text } of docs) {
      opts.onDocument(id);
      checkText(text, d++, id);
      texts.push(text);
      chars += text.length;
      if (chars >= batchChars) {
        analysis.add(texts);
        texts = [];
        chars = 0;
        // Let the workers' answers in: a synchronous input never yields by itself.
        if (analysis.workers > 0) await turn.next();
        for (let done = analysis.ready(); done; done = analysis.ready()) {
          opts.onBatch(done, terms.length);
        }
        if (analysis.queued > MAX_QUEUED) opts.onBatch((await analysis.take())!, terms.length);
      }
    }
    if (texts.length > 0) analysis.add(texts, analysis.workers === 0);
    for (let done = await analysis.take(); done; done = await analysis.take()) {
      opts.onBatch(done, terms.length);
    }
  } finally {
    turn.close();
    analysis.close();
  }
  return terms;
}
