/** A growable list of 32-bit words: records are appended while a `.sym` streams past, then handed over as one typed array. */
export class U32List {
  private words = new Uint32Array(1024)
  length = 0

  push(...values: number[]): void {
    if (this.length + values.length > this.words.length) {
      const grown = new Uint32Array(Math.max(this.words.length * 2, this.length + values.length))
      grown.set(this.words.subarray(0, this.length))
      this.words = grown
    }
    for (const v of values) this.words[this.length++] = v
  }

  get(i: number): number {
    return this.words[i]!
  }

  /** The words so far, as a view. */
  view(): Uint32Array {
    return this.words.subarray(0, this.length)
  }
}

/**
 * Sorts the records in `[from, to)` of `words` (records of `stride` words) by their first word, in
 * place and stable. A `.sym` is nearly always sorted already, so the sort is usually skipped.
 */
export function sortRecords(words: Uint32Array, stride: number, from = 0, to = words.length / stride): void {
  let sorted = true
  for (let i = from + 1; i < to && sorted; i++) sorted = words[i * stride]! >= words[(i - 1) * stride]!
  if (sorted) return
  const range = words.slice(from * stride, to * stride)
  const order = Array.from({ length: to - from }, (_, i) => i).sort((a, b) => range[a * stride]! - range[b * stride]! || a - b)
  order.forEach((src, i) => words.set(range.subarray(src * stride, src * stride + stride), (from + i) * stride))
}
