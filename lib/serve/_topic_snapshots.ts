// Private to `@lib/serve`: every topic's page rows (`readExplorerTopicRows`), read
// once per state of the workspace file and number of passages shown, and shared by
// every topic page asked while the file is unchanged.
import { readExplorerTopicRows, type TopicRows, type Workspace } from "@lib/store/mod.ts";
import { RowSnapshot } from "./_row_snapshot.ts";

/** At most this many row sets are kept (a few values of `k` for the current file). */
const KEPT = 4;

/**
 * Rows are read with at least this many passages per run, so the default page
 * (10) and `?k=100` share one read; a page shows the first `k` of them.
 */
export const SNAPSHOT_K = 100;

/**
 * Topic rows by file stamp and `k`: one {@linkcode RowSnapshot} per number of
 * passages read, each dropping its rows when the stamp changes.
 */
export class TopicSnapshots {
  #byK = new Map<number, RowSnapshot<Map<string, TopicRows>>>();

  /**
   * The rows of every topic for the workspace as it is under `stamp`, read on
   * `ws` by the first request that needs them (the others wait for that read).
   *
   * @param stamp The workspace file's stamp when the request began.
   * @param k Passages per run shown (rows hold at least {@linkcode SNAPSHOT_K}).
   * @param ws The request's workspace handle.
   * @param unchanged Whether the file still has `stamp` (checked after the read: rows
   *   read while a writer committed are used once, not kept).
   */
  get(
    stamp: string,
    k: number,
    ws: Workspace,
    unchanged: () => Promise<boolean>,
  ): Promise<Map<string, TopicRows>> {
    const n = Math.max(k, SNAPSHOT_K);
    let rows = this.#byK.get(n);
    if (!rows) {
      rows = new RowSnapshot((w) => readExplorerTopicRows(w, n));
      this.#byK.set(n, rows);
      while (this.#byK.size > KEPT) this.#byK.delete(this.#byK.keys().next().value!);
    }
    return rows.get(stamp, ws, unchanged);
  }
}
