import type { ModuleEntry } from '../sentry/minidump/module-list'
import type { FrameTrust, WinFrameInfo } from './debug-files.types'
import type { ProcessMemory } from './process-memory'
import type { SymIndex } from './sym-index.reader'

/** The registers a walker names for one CPU, and those a called function must give back unchanged. */
export interface CpuSpec {
  pc: string
  sp: string
  bp: string
  wordSize: 4 | 8
  mask: bigint
  calleeSaved: readonly string[]
}

export const CPUS: Readonly<Record<'x86' | 'amd64', CpuSpec>> = {
  x86: { pc: 'eip', sp: 'esp', bp: 'ebp', wordSize: 4, mask: 0xffffffffn, calleeSaved: ['ebx', 'esi', 'edi', 'ebp'] },
  amd64: { pc: 'rip', sp: 'rsp', bp: 'rbp', wordSize: 8, mask: 0xffffffffffffffffn, calleeSaved: ['rbx', 'rbp', 'r12', 'r13', 'r14', 'r15'] },
}

/** A frame while walking: the registers known in it and how it was found. */
export interface WalkFrame {
  registers: Map<string, bigint>
  trust: FrameTrust
  /** The STACK WIN record used to leave this frame, which its caller's unwinding reads (x86). */
  win: WinFrameInfo | null
}

/** A module holding an address, with its symbols when the caller has them. */
export interface ModuleAt {
  entry: ModuleEntry
  symbols: SymIndex | null
}

/** What every unwinding method works over. */
export interface WalkContext {
  cpu: CpuSpec
  memory: ProcessMemory
  moduleAt(address: bigint): Promise<ModuleAt | null>
  /** Words a stack scan may still read in this walk; scans take from it. */
  scanBudget: { words: number }
}

/** The address to look a frame's code up at: a caller's return address less one, which lies in the call instruction. */
export function lookupAddress(frame: WalkFrame, cpu: CpuSpec): bigint | undefined {
  const pc = frame.registers.get(cpu.pc)
  if (pc === undefined) return undefined
  return frame.trust === 'context' || pc === 0n ? pc : pc - 1n
}
