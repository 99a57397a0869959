// Private to `@lib/serve`: rows read for every page of a kind at once (report
// pages, compare pages), read once per state of the workspace file and shared by
// every page asked while the file is unchanged.
import type { Workspace } from "@lib/store/mod.ts";

/** One kind's rows for the current file stamp; a new stamp drops the old rows. */
export class RowSnapshot<T> {
  #rows?: Promise<T>;
  #stamp = "";

  /** @param read Reads the rows of every page of the kind. */
  constructor(readonly read: (ws: Workspace) => Promise<T>) {}

  /**
   * The rows for the workspace as it is under `stamp`, read on `ws` by the first
   * request that needs them (the others wait for that read).
   *
   * @param stamp The workspace file's stamp when the request began.
   * @param ws The request's workspace handle.
   * @param unchanged Whether the file still has `stamp` (checked after the read: rows
   *   read while a writer committed are used once, not kept).
   */
  get(stamp: string, ws: Workspace, unchanged: () => Promise<boolean>): Promise<T> {
    if (stamp === this.#stamp && this.#rows) return this.#rows;
    this.#stamp = stamp;
    const read = this.read(ws);
    this.#rows = read;
    const forget = () => {
      if (this.#rows === read) this.#rows = undefined;
    };
    read.then(async () => {
      if (!(await unchanged())) forget();
    }, forget);
    return read;
  }
}
