/** Collects problems while a reader walks a file; private to `@lib/formats`. */
import { InputError, MAX_PROBLEMS, type Problem } from "./input_error.ts";

/** Accumulates problems of one file up to a cap and throws them together. */
export class Problems {
  readonly list: Problem[] = [];
  total = 0;
  constructor(readonly file: string, readonly cap = MAX_PROBLEMS) {}

  /** Records a problem at `line` (1-based; 0 for the whole file). */
  add(line: number, field: string | undefined, message: string): void {
    this.total++;
    if (this.list.length < this.cap) {
      this.list.push(
        field ? { file: this.file, line, field, message } : { file: this.file, line, message },
      );
    }
  }

  /** Records a problem found in another file (e.g. one file of a folder). */
  addProblem(problem: Problem): void {
    this.total++;
    if (this.list.length < this.cap) this.list.push(problem);
  }

  /** True once the cap is reached (readers may stop scanning early). */
  get full(): boolean {
    return this.total >= this.cap;
  }

  /** Throws an `InputError` when any problem was recorded. */
  throwIfAny(): void {
    if (this.total > 0) throw new InputError(this.list, this.total);
  }
}

/** Describes a value for an error message: strings quoted and cut, others as JSON. */
export function show(value: unknown): string {
  // JSON reads 1e400 as Infinity, which JSON.stringify would print as null.
  if (typeof value === "number" && !Number.isFinite(value)) {
    return "a number outside the 64-bit float range (e.g. 1e400)";
  }
  const text = typeof value === "string"
    ? JSON.stringify(value)
    : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}
