import type { ByteView, Location } from './byte-view'
import { type MemoryRegion, readMemoryDescriptor } from './memory-list'
import { THREAD_SIZE } from './minidump.format'
import { listEntries } from './module-list'

/** Threads read at most; the rest of a larger list is left out. */
export const MAX_THREADS = 4096

/** A thread as the walker needs it: its id, its stack memory and where its CPU context lies. */
export interface ThreadEntry {
  id: number
  stack: MemoryRegion
  context: Location
}

/** Reads MINIDUMP_THREAD_LIST (48 bytes a thread: id at 0, stack descriptor at 24, context location at 40). */
export function readThreadList(v: ByteView, loc: Location): ThreadEntry[] {
  const { count, first } = listEntries(v, loc, THREAD_SIZE, 'thread list')
  const threads: ThreadEntry[] = []
  for (let i = 0; i < Math.min(count, MAX_THREADS); i++) {
    const at = first + i * THREAD_SIZE
    threads.push({ id: v.u32(at, 'thread'), stack: readMemoryDescriptor(v, at + 24, 'thread stack'), context: v.location(at + 40, 'thread context') })
  }
  return threads
}
