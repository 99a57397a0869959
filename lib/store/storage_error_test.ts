import assert from "node:assert/strict";
import { explainStorageError, WorkspaceStorageError } from "./storage_error.ts";

// Messages as the database engine prints them (file paths shortened).
const LOCKED_BY_WRITER = 'IO Error: Could not set lock on file "/x/w.duckdb": Conflicting lock ' +
  "is held in /usr/bin/deno (PID 13093). However, you would be able to open this database in " +
  "read-only mode, e.g. by using the -readonly parameter in the CLI. See also " +
  "https://duckdb.org/docs/stable/connect/concurrency";
const TRUNCATED = 'IO Error: Could not read enough bytes from file "/x/w.duckdb": attempted to ' +
  "read 262144 bytes from location 798720";
const NOT_A_DB =
  'IO Error: The file "/x/w.duckdb" exists, but it is not a valid DuckDB database file!';
const FULL = 'IO Error: Could not write file "/x/w.duckdb": No space left on device';
const ABORTED = "TransactionContext Error: Current transaction is aborted (please ROLLBACK)";
const INVALIDATED = "FATAL Error: Failed: database has been invalidated because of a previous " +
  "fatal error. The database must be restarted prior to being used again.\nOriginal error: " +
  '"Failed to create checkpoint because of error: Could not write file "/x/w.duckdb": No space ' +
  'left on device"';

Deno.test("explainStorageError names the fault and what to do, without the engine's CLI hints", () => {
  const cases: [string, string, RegExp][] = [
    [LOCKED_BY_WRITER, "locked", /in use by another process \(PID 13093\).*Wait for it/],
    [TRUNCATED, "damaged", /is damaged.*crux workspace check --workspace outputs\/exp/],
    [NOT_A_DB, "damaged", /truncated or is not a database/],
    [FULL, "disk-full", /the disk is full\. The write was rolled back/],
    [ABORTED, "aborted", /failed earlier in the same transaction \(often a full disk\)/],
    [
      INVALIDATED,
      "invalidated",
      /stopped accepting writes after an earlier failure \(the disk is full\)/,
    ],
  ];
  for (const [engine, fault, advice] of cases) {
    const e = explainStorageError(new Error(engine), "outputs/exp");
    assert.ok(e instanceof WorkspaceStorageError, engine);
    assert.equal(e.fault, fault);
    assert.match(e.message, advice);
    assert.equal(e.engineMessage, engine);
    assert.doesNotMatch(e.message, /-readonly|See also https/);
    assert.match(e.message, /outputs\/exp/);
  }
});

Deno.test("explainStorageError leaves other errors alone and phrases an unknown folder", () => {
  assert.equal(
    explainStorageError(new Error("Binder Error: Referenced column x not found"), "w"),
    undefined,
  );
  assert.equal(explainStorageError("plain", "w"), undefined);
  const e = explainStorageError(new Error(FULL));
  assert.match(e!.message, /^Cannot write to the workspace: the disk is full/);
  assert.match(e!.message, /crux workspace check --workspace DIR/);
  // An explained error passes through unchanged.
  assert.equal(explainStorageError(e, "other"), e);
});
