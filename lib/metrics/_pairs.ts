// Checks of paired samples shared by the correlation and significance functions.

/** Checks that two samples are paired and long enough; throws a RangeError naming `what`. */
export function checkPaired(
  x: readonly number[],
  y: readonly number[],
  what: string,
  min = 2,
): void {
  if (x.length !== y.length) {
    throw new RangeError(
      `Cannot compute ${what}: the samples have ${x.length} and ${y.length} values; pass paired samples`,
    );
  }
  if (x.length < min) {
    throw new RangeError(`Cannot compute ${what}: need at least ${min} pairs, got ${x.length}`);
  }
}

export { mean } from "./mean.ts";
