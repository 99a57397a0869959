import assert from "node:assert/strict";
import { intOption, numberOption } from "./_options.ts";
import { UsageError } from "./command.ts";

Deno.test("numberOption reads numbers and names the option on bad input", () => {
  assert.equal(numberOption("k1", "1.2", 0.9), 1.2);
  assert.equal(numberOption("k1", undefined, 0.9), 0.9);
  assert.throws(
    () => numberOption("k1", "abc", 0.9),
    (e: Error) =>
      e instanceof UsageError && e.message === 'Option --k1 expects a number, got "abc"',
  );
  assert.throws(() => numberOption("b", " ", 0.4), UsageError);
  assert.throws(() => numberOption("b", "Infinity", 0.4), UsageError);
});

Deno.test("intOption enforces integers and the lower bound", () => {
  assert.equal(intOption("limit", "20"), 20);
  assert.equal(intOption("limit", undefined), undefined);
  assert.equal(intOption("limit", undefined, { fallback: 10 }), 10);
  assert.equal(intOption("n", "0", { min: 0 }), 0);
  assert.throws(() => intOption("limit", "0"), /--limit expects an integer >= 1, got "0"/);
  assert.throws(() => intOption("limit", "2.5"), UsageError);
});
