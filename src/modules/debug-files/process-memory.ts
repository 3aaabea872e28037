import type { MemoryRegion } from '../sentry/minidump/memory-list'

const OVERLAPS_TRIED = 4

/** The crashed process's memory as far as the dump kept it: words read by address across its regions. */
export class ProcessMemory {
  private readonly views: DataView[]

  /** `regions` sorted by start address. */
  constructor(private readonly regions: readonly MemoryRegion[], readonly wordSize: 4 | 8) {
    this.views = regions.map((r) => new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength))
  }

  /** The little-endian word at `address`, undefined when no region holds all of it. */
  word(address: bigint): bigint | undefined {
    let [lo, hi] = [0, this.regions.length]
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.regions[mid]!.start <= address) lo = mid + 1
      else hi = mid
    }
    // Regions may overlap (a thread's stack is often in the memory list too): the nearest few before the address are tried.
    for (let i = lo - 1; i >= Math.max(0, lo - OVERLAPS_TRIED); i--) {
      const at = address - this.regions[i]!.start
      if (at + BigInt(this.wordSize) > BigInt(this.regions[i]!.bytes.byteLength)) continue
      const view = this.views[i]!
      return this.wordSize === 8 ? view.getBigUint64(Number(at), true) : BigInt(view.getUint32(Number(at), true))
    }
    return undefined
  }
}
