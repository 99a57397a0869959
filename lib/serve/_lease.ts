// Private to `@lib/serve`: the server's hold on its workspace file. The file is
// open only while requests are being answered (read-only for reads, read-write
// while a write is in flight) and closed as soon as none is, so another process
// (`crux run`, `crux annotate export`) can open it between requests.
import { openWorkspace, type Workspace } from "@lib/store/mod.ts";

/** What a request needs: reading, or writing (which also reads). */
export type LeaseMode = "read" | "write";

/**
 * The workspace of a server, opened on demand: the first request opens it, the
 * last one to finish closes it. Reads join whatever is open; a write needs the
 * file read-write, so it waits until a read-only hold ends (reads arriving
 * meanwhile wait behind it, so writes are never starved), then opens it
 * read-write and every request arriving while it is open joins it. Each request
 * works on a connection of its own (a fork); writes of one process queue on the
 * workspace's one writer.
 */
export class WorkspaceLease {
  #open?: Promise<Workspace>;
  #ws?: Workspace;
  #mode: LeaseMode = "read";
  #users = 0;
  #writersWaiting = 0;
  #closed?: Promise<void>;
  #markClosed = () => {};

  constructor(readonly dir: string) {}

  /** Whether a request of `mode` may join what is open now. */
  #joins(mode: LeaseMode): boolean {
    if (this.#mode === "write") return true;
    return mode === "read" && this.#writersWaiting === 0;
  }

  /** Joins or opens the workspace; the open itself is awaited by the caller. */
  async #acquire(mode: LeaseMode): Promise<{ open: Promise<Workspace> }> {
    if (mode === "write") this.#writersWaiting++;
    try {
      while (this.#open && !this.#joins(mode)) await this.#closed;
    } finally {
      if (mode === "write") this.#writersWaiting--;
    }
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
   * @param onOpen Called once the workspace is open, before `work` (an error before
   *   it is a failure to open: the file is held by another process, or missing).
   * @returns What `work` returns.
   */
  async use<T>(
    mode: LeaseMode,
    work: (ws: Workspace) => Promise<T>,
    onOpen: () => void = () => {},
  ): Promise<T> {
    const { open } = await this.#acquire(mode);
    try {
      const fork = await (await open).fork();
      onOpen();
      try {
        return await work(fork);
      } finally {
        fork.close();
      }
    } finally {
      this.#release();
    }
  }

  /** Closes the workspace if a request left it open (at shutdown). */
  close(): void {
    this.#ws?.close();
  }
}
