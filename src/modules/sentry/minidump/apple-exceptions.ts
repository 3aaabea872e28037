import type { ExceptionRecord, NamedException } from './exception-record'
import { hex8 } from './hex'

/** Mach exception types (mach/exception_types.h), the exception code of Apple dumps. */
const TYPES: Readonly<Record<number, string>> = {
  1: 'EXC_BAD_ACCESS',
  2: 'EXC_BAD_INSTRUCTION',
  3: 'EXC_ARITHMETIC',
  4: 'EXC_EMULATION',
  5: 'EXC_SOFTWARE',
  6: 'EXC_BREAKPOINT',
  7: 'EXC_SYSCALL',
  8: 'EXC_MACH_SYSCALL',
  9: 'EXC_RPC_ALERT',
  10: 'EXC_CRASH',
  11: 'EXC_RESOURCE',
  12: 'EXC_GUARD',
  13: 'EXC_CORPSE_NOTIFY',
  0x43507378: 'SIMULATED', // Crashpad's dump without a crash ("CPsx")
}

/** The Mach code (the record's flags) per exception type; some depend on the CPU family. */
const KERN: Readonly<Record<number, string>> = {
  1: 'KERN_INVALID_ADDRESS',
  2: 'KERN_PROTECTION_FAILURE',
  5: 'KERN_FAILURE',
  8: 'KERN_NO_ACCESS',
  9: 'KERN_MEMORY_FAILURE',
  10: 'KERN_MEMORY_ERROR',
  50: 'KERN_CODESIGN_ERROR',
}
type Cpu = 'arm' | 'x86'
const CODES: Readonly<Record<number, Partial<Record<Cpu, Readonly<Record<number, string>>>>>> = {
  1: {
    arm: { 0x101: 'EXC_ARM_DA_ALIGN', 0x102: 'EXC_ARM_DA_DEBUG', 0x103: 'EXC_ARM_SP_ALIGN', 0x104: 'EXC_ARM_SWP', 0x105: 'EXC_ARM_PAC_FAIL' },
    x86: { 13: 'EXC_I386_GPFLT' },
  },
  2: {
    arm: { 1: 'EXC_ARM_UNDEFINED' },
    x86: { 1: 'EXC_I386_INVOP', 10: 'EXC_I386_INVTSSFLT', 11: 'EXC_I386_SEGNPFLT', 12: 'EXC_I386_STKFLT', 13: 'EXC_I386_GPFLT', 17: 'EXC_I386_ALIGNFLT' },
  },
  3: {
    arm: { 1: 'EXC_ARM_FP_IO', 2: 'EXC_ARM_FP_DZ', 3: 'EXC_ARM_FP_OF', 4: 'EXC_ARM_FP_UF', 5: 'EXC_ARM_FP_IX', 6: 'EXC_ARM_FP_ID' },
    x86: { 1: 'EXC_I386_DIV', 2: 'EXC_I386_INTO', 3: 'EXC_I386_NOEXT', 4: 'EXC_I386_EXTOVR', 5: 'EXC_I386_EXTERR', 6: 'EXC_I386_EMERR', 7: 'EXC_I386_BOUND', 8: 'EXC_I386_SSEEXTERR' },
  },
  6: { arm: { 1: 'EXC_ARM_BREAKPOINT' }, x86: { 1: 'EXC_I386_SGL', 2: 'EXC_I386_BPT' } },
}
const SOFTWARE: Readonly<Record<number, string>> = { 0x10002: 'SIGABRT', 0xdeadc0de: 'UNCAUGHT_NS_EXCEPTION' }
/** EXC_RESOURCE and EXC_GUARD keep their kind in the top three bits of the code. */
const RESOURCE: readonly string[] = ['', 'RESOURCE_TYPE_CPU', 'RESOURCE_TYPE_WAKEUPS', 'RESOURCE_TYPE_MEMORY', 'RESOURCE_TYPE_IO', 'RESOURCE_TYPE_THREADS']
const GUARD: readonly string[] = ['GUARD_TYPE_NONE', 'GUARD_TYPE_MACH_PORT', 'GUARD_TYPE_FD', 'GUARD_TYPE_USER', 'GUARD_TYPE_VN', 'GUARD_TYPE_VIRT_MEMORY', 'GUARD_TYPE_REJECTED_SC']

function cpuOf(arch: string | null): Cpu | null {
  if (arch === 'arm64' || arch === 'arm') return 'arm'
  return arch === 'x86' || arch === 'amd64' ? 'x86' : null
}

/** Names a Mach exception as Breakpad records it: the type, then its code (`EXC_BAD_ACCESS / KERN_INVALID_ADDRESS`). */
export function appleException(r: ExceptionRecord, arch: string | null): NamedException {
  const name = TYPES[r.code]
  if (!name) return { name: `unknown ${hex8(r.code)}`, reason: `unknown ${hex8(r.code)} / ${hex8(r.flags)}` }
  if (name === 'SIMULATED') return { name, reason: name }
  const cpu = cpuOf(arch)
  const detail =
    r.code === 1 && KERN[r.flags] ? KERN[r.flags]
    : r.code === 5 ? SOFTWARE[r.flags]
    : r.code === 11 ? RESOURCE[(r.flags >>> 29) & 7] || undefined
    : r.code === 12 ? GUARD[(r.flags >>> 29) & 7]
    : cpu ? CODES[r.code]?.[cpu]?.[r.flags]
    : undefined
  return { name, reason: `${name} / ${detail ?? hex8(r.flags)}` }
}
