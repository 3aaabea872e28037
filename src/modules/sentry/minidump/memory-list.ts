import type { ByteView, Location } from './byte-view'
import { MEMORY_DESCRIPTOR_SIZE } from './minidump.format'
import { listEntries } from './module-list'

/** Memory regions read at most: a minidump holds a stack per thread and a few pages around pointers. */
export const MAX_MEMORY_REGIONS = 65536

/** A range of the crashed process's memory the dump kept: its bytes as a view of the file. */
export interface MemoryRegion {
  start: bigint
  bytes: Uint8Array
}

/** Reads one MINIDUMP_MEMORY_DESCRIPTOR at `at`: start address and the bytes it locates. */
export function readMemoryDescriptor(v: ByteView, at: number, what: string): MemoryRegion {
  const start = v.u64(at, what)
  const loc = v.location(at + 8, what)
  return { start, bytes: v.slice(loc.rva, loc.size, what) }
}

/** Reads MINIDUMP_MEMORY_LIST: the first MAX_MEMORY_REGIONS regions, sorted by start address. */
export function readMemoryList(v: ByteView, loc: Location): MemoryRegion[] {
  const { count, first } = listEntries(v, loc, MEMORY_DESCRIPTOR_SIZE, 'memory list')
  const regions: MemoryRegion[] = []
  for (let i = 0; i < Math.min(count, MAX_MEMORY_REGIONS); i++) regions.push(readMemoryDescriptor(v, first + i * MEMORY_DESCRIPTOR_SIZE, 'memory list'))
  return regions.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
}
