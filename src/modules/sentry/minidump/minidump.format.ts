/**
 * Constants of the Minidump format (Microsoft's MINIDUMP_* structures, with the Breakpad and
 * Crashpad extensions as google_breakpad/common/minidump_format.h defines them). Sizes are the
 * packed sizes on disk.
 */

/** `MDMP` read as a little-endian 32-bit number. */
export const SIGNATURE = 0x504d444d
/** The same bytes of a big-endian dump (`PMDM`): Breakpad on PowerPC wrote those; none arrive today. */
export const SIGNATURE_SWAPPED = 0x4d444d50
/** The low 16 bits of the header's version; the high 16 bits are the writer's own. */
export const FORMAT_VERSION = 0xa793

export const HEADER_SIZE = 32
export const DIRECTORY_ENTRY_SIZE = 12
export const MODULE_SIZE = 108
export const THREAD_SIZE = 48
/** MINIDUMP_MEMORY_DESCRIPTOR: a 64-bit start address and a location. */
export const MEMORY_DESCRIPTOR_SIZE = 16
export const SYSTEM_INFO_SIZE = 56
export const EXCEPTION_STREAM_SIZE = 168
/** MINIDUMP_EXCEPTION holds at most 15 parameters. */
export const EXCEPTION_MAX_PARAMETERS = 15

export const Stream = {
  threadList: 3,
  moduleList: 4,
  memoryList: 5,
  exception: 6,
  systemInfo: 7,
  linuxCpuInfo: 0x47670003,
  linuxLsbRelease: 0x47670005,
} as const

/** VS_FIXEDFILEINFO's signature and structure version, when a module carries one. */
export const FIXED_FILE_INFO_SIGNATURE = 0xfeef04bd
export const FIXED_FILE_INFO_VERSION = 0x10000

/** CodeView record signatures: PDB 7.0 (`RSDS`), PDB 2.0 (`NB10`), Breakpad's ELF build id (`BpEL`). */
export const CodeView = { pdb70: 0x53445352, pdb20: 0x3031424e, elf: 0x4270454c } as const

/** processor_architecture → the name crash tools use. */
export const ARCHITECTURES: Readonly<Record<number, string>> = {
  0: 'x86',
  1: 'mips',
  2: 'alpha',
  3: 'ppc',
  4: 'shx',
  5: 'arm',
  6: 'ia64',
  7: 'alpha64',
  8: 'msil',
  9: 'amd64',
  10: 'x86', // a 32-bit process on 64-bit Windows (WoW64)
  12: 'arm64',
  0x8001: 'sparc',
  0x8002: 'ppc64',
  0x8003: 'arm64', // Breakpad's arm64 from before Windows defined one: another CONTEXT layout
  0x8004: 'mips64',
  0x8005: 'riscv',
  0x8006: 'riscv64',
}

/** The architecture values whose CONTEXT layout the parser reads the instruction pointer from. */
export const Arch = { x86: 0, arm: 5, amd64: 9, x86OnWin64: 10, arm64: 12, arm64Old: 0x8003 } as const

/** Architectures with 32-bit pointers: their addresses are cut to 32 bits (writers sometimes sign-extend them). */
export const ARCHITECTURES_32_BIT = new Set<number>([0, 1, 3, 4, 5, 10, 0x8001, 0x8005])

/** platform_id → operating system. */
export const PLATFORMS: Readonly<Record<number, string>> = {
  0: 'Windows', // Win32s
  1: 'Windows', // 95, 98, Me
  2: 'Windows', // NT and every Windows since 2000
  3: 'Windows CE',
  0x8000: 'Unix',
  0x8101: 'macOS',
  0x8102: 'iOS',
  0x8201: 'Linux',
  0x8202: 'Solaris',
  0x8203: 'Android',
  0x8204: 'PS3',
  0x8205: 'NaCl',
  0x8206: 'Fuchsia',
}

/** Which naming scheme an exception code follows, by platform. */
export type ExceptionFamily = 'windows' | 'apple' | 'posix' | 'unknown'

export function exceptionFamily(platformId: number | null): ExceptionFamily {
  if (platformId === null) return 'unknown'
  if (platformId <= 3) return 'windows'
  if (platformId === 0x8101 || platformId === 0x8102) return 'apple'
  if (platformId >= 0x8000 && platformId <= 0x8206) return 'posix'
  return 'unknown'
}
