import type { StackFrame } from '../../ingest/stack'
import type { ParsedMinidump } from './minidump.types'

/** Where the crash happened as people read it: `game.exe+0x1a2b3c`, the bare address without a module, null without either. */
export function crashLocation(dump: ParsedMinidump): string | null {
  const site = dump.crashSite
  if (!site) return null
  return site.module && site.offset ? `${site.module}+${site.offset}` : site.address
}

/** A report title: `EXCEPTION_ACCESS_VIOLATION_READ at game.exe+0x1a2b3c`, `SIGSEGV / SEGV_MAPERR at libgame.so+0x1d72`. */
export function minidumpTitle(dump: ParsedMinidump): string {
  const where = crashLocation(dump)
  const what = dump.exception?.reason ?? 'Minidump without an exception record'
  return where ? `${what} at ${where}` : what
}

/**
 * The crashing frame for grouping: module base name and, as its address, the offset in that module,
 * which stays the same between runs under address-space randomisation (grouping keys a frame
 * without a function on `module+address`). Without a module, the absolute address. The function is
 * unknown: nothing is symbolicated.
 */
export function minidumpTopFrame(dump: ParsedMinidump): StackFrame | null {
  const site = dump.crashSite
  if (!site) return null
  return site.module && site.offset ? { module: site.module, address: site.offset } : { address: site.address }
}
