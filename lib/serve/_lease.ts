// Private to `@lib/serve`: the server's hold on its workspace file. The file is
// open only while requests are being answered (read-only for reads, read-write
// while a write is in flight) and closed as soon as none is, so another process
// (`crux run`, `crux annotate export`) can open it between requests.
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";

/** How often `close` interrupts background work until it has ended. */
const INTERRUPT_EVERY_MS = 5;

/** What a request needs: reading, or writing (which also reads). */
export type LeaseMode = "read" | "write";

/** Options of {@linkcode WorkspaceLease.use}. */
export interface LeaseUseOptions {
  /**
   * Called once the workspace is open, before the work (an error before it is a
   * failure to open: the file is held by another process, or missing).
   */
  onOpen?: () => void;
  /**
   * Work nobody waits for (rows read ahead in the background): `close` interrupts
   * its queries instead of waiting for them to end (the work then fails). Default false.
   */
  background?: boolean;
}

/**
 * The workspace of a server, opened on demand: the first request opens it, the
 * last one to finish closes it. Reads join whatever is open; a write needs the
 * file read-write, so it waits until a read-only hold ends (reads arriving
 * meanwhile wait behind it, so writes are never starved), then opens it
 * read-write and every request arriving while it is open joins it. Each request
 * works on a connection of its own (a fork); writes of one process queue on the
 * workspace's one writer. Once `close` is called nothing opens the file again,
 * and `close` resolves when every connection and the database are closed.
 */
export class WorkspaceLease {
  #open?: Promise<Workspace>;
  #ws?: Workspace;
  #mode: LeaseMode = "read";
  #users = 0;
  #writersWaiting = 0;
  #closed?: Promise<void>;
  #markClosed = () => {};
  #closing?: Promise<void>;
  /** Forks of background work, interrupted by `close`. */
  #background = new Set<Workspace>();

  constructor(readonly dir: string) {}

  /** Whether a request of `mode` may join what is open now. */
  #joins(mode: LeaseMode): boolean {
    if (this.#mode === "write") return true;
    return mode === "read" && this.#writersWaiting === 0;
  }

  #refuseWhenClosing(): void {
    if (this.#closing) {
      throw new Error(`Workspace "${this.dir}" is closing: the server is shutting down`);
    }
  }

  /** Joins or opens the workspace; the open itself is awaited by the caller. */
  async #acquire(mode: LeaseMode): Promise<{ open: Promise<Workspace> }> {
    this.#refuseWhenClosing();
    if (mode === "write") this.#writersWaiting++;
    try {
      while (this.#open && !this.#joins(mode)) await this.#closed;
    } finally {
      if (mode === "write") this.#writersWaiting--;
    }
    // A request that waited while the server began shutting down opens nothing.
    this.#refuseWhenClosing();
    if (!this.#open) {
      this.#mode = mode;
      this.#closed = new Promise<void>((resolve) => this.#markClosed = resolve);
      const opening = openWorkspace(this.dir, { readOnly: mode === "read" });
      this.#open = opening.then((ws) => this.#ws = ws);
      // A failed open is seen by every request waiting for it; none is left unhandled.
      this.#open.catch(() => {});
    }
    this.#users++;
    // Wrapped: an async function would otherwise await the open before returning.
    return { open: this.#open };
  }

  /** The last user closes the workspace, after its own fork is closed. */
  #release(): void {
    if (--this.#users > 0) return;
    this.#ws?.close();
    this.#ws = undefined;
    this.#open = undefined;
    this.#markClosed();
  }

  /**
   * Runs `work` on the workspace opened for `mode`, on a connection of its own.
   *
   * @param mode `read` or `write`.
   * @param work The request's work.
   * @param opts `onOpen`, and whether the work is `background` work.
   * @returns What `work` returns.
   * @throws {Error} Once `close` was called (nothing is opened).
   */
  async use<T>(
    mode: LeaseMode,
    work: (ws: Workspace) => Promise<T>,
    opts: LeaseUseOptions = {},
  ): Promise<T> {
    const { open } = await this.#acquire(mode);
    try {
      const fork = await (await open).fork();
      try {
        if (opts.background) {
          // Closing began while the fork was being made: the work does not start.
          this.#refuseWhenClosing();
          this.#background.add(fork);
        }
        opts.onOpen?.();
        return await work(fork);
      } finally {
        this.#background.delete(fork);
        fork.close();
      }
    } finally {
      this.#release();
    }
  }

  /**
   * Stops lending the workspace and closes it: work begun after this call is
   * refused, background work is interrupted, and the promise resolves once every
   * use has ended and every connection and the database are closed (so the file
   * can be opened read-write at once, by this process or another). Other work in
   * progress (requests being answered) is waited for, not cut short.
   *
   * @returns When the workspace is closed.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      // An interrupt stops the query running on a connection, not the next one the
      // work begins: background work is interrupted again until it has ended.
      while (this.#background.size) {
        for (const fork of this.#background) fork.connection.interrupt();
        await new Promise((resolve) => setTimeout(resolve, INTERRUPT_EVERY_MS));
      }
      while (this.#open) await this.#closed;
    })();
    return this.#closing;
  }
}
