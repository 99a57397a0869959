/** Test helpers of `@lib/formats` (not part of the public API). */
import { InputError } from "./input_error.ts";

/** Runs `fn` and returns the `InputError` it throws; fails when it throws anything else or nothing. */
export function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError, but nothing was thrown");
}

/** Awaits `promise` and returns the `InputError` it rejects with. */
export async function inputErrorOf(promise: Promise<unknown>): Promise<InputError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError, but the promise resolved");
}
