// Growable typed buffers for index building.

/** A growable Uint32 buffer (amortised doubling). */
export class U32Buffer {
  data: Uint32Array;
  length = 0;
  /**
   * Capacity that doubling stops at (it still grows past it when more is
   * needed): a buffer known to stay near a size is not allocated twice that.
   */
  softLimit = Infinity;
  constructor(capacity = 1024) {
    this.data = new Uint32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }
  grow(min: number): void {
    let cap = this.data.length * 2;
    if (this.data.length < this.softLimit && cap > this.softLimit) cap = this.softLimit;
    while (cap < min) cap *= 2;
    const next = new Uint32Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  /** A trimmed copy of the contents. */
  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}
