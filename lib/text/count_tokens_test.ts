import assert from "node:assert/strict";
import { countTokens } from "./count_tokens.ts";

Deno.test("countTokens counts Llama-3.1 tokens without special tokens", () => {
  // Token ids [9906, 11, 856, 5679, 374, 19369]: "Hello" "," " my" " dog" " is" " cute".
  assert.equal(countTokens("Hello, my dog is cute"), 6);
  assert.equal(countTokens(""), 0);
  // Cached value equals a fresh count.
  assert.equal(countTokens("Hello, my dog is cute"), 6);
});

Deno.test("countTokens counts white-space words and rejects unknown tokenizers", () => {
  assert.equal(countTokens(" Hello,  my dog\nis cute ", { tokenizer: "whitespace" }), 5);
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => countTokens("x", { tokenizer: "gpt2" as any }),
    /tokenizer "gpt2"/,
  );
});
