import type { ByteView, Location } from './byte-view'
import { Arch } from './minidump.format'

/**
 * Where each CPU's CONTEXT keeps its flags and instruction pointer (offsets into the structure, as
 * google_breakpad/common/minidump_cpu_*.h lay them out):
 * - x86 (MDRawContextX86): context_flags at 0; 6 debug registers, the 112-byte FLOATING_SAVE_AREA and
 *   12 segment and integer registers before eip at 184.
 * - amd64 (MDRawContextAMD64): six 64-bit home registers first, so context_flags is at 48; rip at 248.
 * - arm (MDRawContextARM): context_flags at 0, iregs[16] from 4, pc = iregs[15] at 64.
 * - arm64, the Windows and Crashpad layout (MDRawContextARM64): 32-bit context_flags and cpsr, then
 *   iregs[33] (x0..x28, fp, lr, sp, pc) from 8: pc at 264.
 * - arm64, Breakpad's older layout (MDRawContextARM64_Old, architecture 0x8003): a 64-bit
 *   context_flags, then iregs[33] from 8 with cpsr after them: pc also at 264.
 * The flags carry a CPU bit; a context whose bit does not match the system's CPU is not trusted.
 */
interface Layout {
  flagsAt: number
  /** Any of these bits in the flags marks a context of this CPU. */
  cpuBits: number
  pcAt: number
  pcBytes: 4 | 8
}

const X86: Layout = { flagsAt: 0, cpuBits: 0x00010000, pcAt: 184, pcBytes: 4 }
const AMD64: Layout = { flagsAt: 48, cpuBits: 0x00100000, pcAt: 248, pcBytes: 8 }
// 0x40 is MD_CONTEXT_ARM_OLD, the bit Breakpad used before it clashed with Windows' flags.
const ARM: Layout = { flagsAt: 0, cpuBits: 0x40000000 | 0x40, pcAt: 64, pcBytes: 4 }
// Both arm64 layouts keep pc at 264, so either one's flag is accepted under either architecture value.
const ARM64: Layout = { flagsAt: 0, cpuBits: 0x00400000 | 0x80000000, pcAt: 264, pcBytes: 8 }

const LAYOUTS: Readonly<Record<number, Layout>> = {
  [Arch.x86]: X86,
  [Arch.x86OnWin64]: X86,
  [Arch.amd64]: AMD64,
  [Arch.arm]: ARM,
  [Arch.arm64]: ARM64,
  [Arch.arm64Old]: ARM64,
}

/**
 * The instruction pointer of a thread context, or null when the context is empty, too short to hold
 * it, of a CPU whose layout is not read here, or flagged as another CPU's.
 */
export function instructionPointer(v: ByteView, loc: Location, arch: number | null): bigint | null {
  const layout = arch === null ? undefined : LAYOUTS[arch]
  if (!layout || loc.size < layout.pcAt + layout.pcBytes) return null
  const flags = v.u32(loc.rva + layout.flagsAt, 'thread context')
  if ((flags & layout.cpuBits) === 0) return null
  return layout.pcBytes === 4 ? BigInt(v.u32(loc.rva + layout.pcAt, 'thread context')) : v.u64(loc.rva + layout.pcAt, 'thread context')
}
