import type { ByteView, Location } from './byte-view'
import { instructionPointer } from './cpu-context'
import { Arch } from './minidump.format'

/**
 * The integer registers a stack walker starts from, by their offsets in the CONTEXT structures of
 * google_breakpad/common/minidump_cpu_x86.h and minidump_cpu_amd64.h (flags and pc offsets are
 * cpu-context.ts's). Other CPUs are not walked yet.
 */
const X86_REGISTERS: ReadonlyArray<[string, number]> = [
  ['edi', 156], ['esi', 160], ['ebx', 164], ['edx', 168], ['ecx', 172], ['eax', 176], ['ebp', 180], ['eip', 184], ['efl', 192], ['esp', 196],
]
const AMD64_REGISTERS: ReadonlyArray<[string, number]> = [
  ['rax', 120], ['rcx', 128], ['rdx', 136], ['rbx', 144], ['rsp', 152], ['rbp', 160], ['rsi', 168], ['rdi', 176],
  ['r8', 184], ['r9', 192], ['r10', 200], ['r11', 208], ['r12', 216], ['r13', 224], ['r14', 232], ['r15', 240], ['rip', 248],
]

/** The registers of an x86 or amd64 thread context by name (`eip`, `rsp`, …), or null for other CPUs and unusable contexts. */
export function readRegisters(v: ByteView, loc: Location, arch: number | null): Map<string, bigint> | null {
  if (instructionPointer(v, loc, arch) === null) return null
  const amd64 = arch === Arch.amd64
  if (!amd64 && arch !== Arch.x86 && arch !== Arch.x86OnWin64) return null
  const [layout, width] = amd64 ? [AMD64_REGISTERS, 8] : [X86_REGISTERS, 4]
  if (loc.size < Math.max(...layout.map(([, offset]) => offset)) + width) return null
  const registers = new Map<string, bigint>()
  for (const [name, offset] of layout) {
    registers.set(name, amd64 ? v.u64(loc.rva + offset, 'thread context') : BigInt(v.u32(loc.rva + offset, 'thread context')))
  }
  return registers
}
