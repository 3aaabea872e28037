/**
 * What the parser reads out of a minidump: plain JSON-ready values. Addresses are lower-case hex
 * text (`0x7ff6a1b2c3d4`) because 64-bit addresses do not fit a JavaScript number.
 */

export interface MinidumpHeader {
  signature: 'MDMP'
  /** The raw version field: 0xa793 in the low 16 bits, the writer's own number in the high 16. */
  version: number
  streamCount: number
  /** When the dump was written, in Unix seconds (0 when the writer left it out). */
  timestamp: number
}

export interface MinidumpSystemInfo {
  /** `x86`, `amd64`, `arm`, `arm64`, … or `unknown (0x…)`. */
  arch: string
  cpuCount: number
  /** `GenuineIntel`, `AuthenticAMD`: x86 and amd64 dumps that record it (Windows does on x86 only). */
  cpuVendor: string | null
  /** Family, model and stepping as minidump_stackwalk prints them: `GenuineIntel family 6 model 13 stepping 8` on x86, without the vendor on amd64; null on other CPUs. */
  cpuInfo: string | null
  /** The `model name` line of `/proc/cpuinfo` in Breakpad's Linux dumps. */
  cpuModel: string | null
  /** `Windows`, `macOS`, `iOS`, `Linux`, `Android`, … or `unknown (0x…)`. */
  os: string
  /** `10.0.19042` (major.minor.build), or the kernel release on Linux (`4.9.60-linuxkit-aufs`). */
  osVersion: string
  /** The service pack (`Service Pack 2`), the macOS build (`16G29`) or the Linux kernel build (`#1 SMP …`). */
  osBuild: string | null
  /** The distribution from Breakpad's copy of `/etc/lsb-release` (or os-release). */
  distribution: LinuxDistribution | null
}

export interface LinuxDistribution {
  id: string | null
  release: string | null
  codename: string | null
  description: string | null
}

export interface MinidumpException {
  threadId: number
  /** The raw exception code: a Windows exception code, a signal number, or a Mach exception type. */
  code: number
  /** Windows: 1 when noncontinuable; Linux: the signal's si_code; Apple: the Mach exception code. */
  flags: number
  /** `EXCEPTION_ACCESS_VIOLATION_WRITE`, `SIGSEGV`, `EXC_BAD_ACCESS`, or `unknown 0x…`. */
  name: string
  /** The name with its detail, as minidump_stackwalk prints it: `EXC_BAD_ACCESS / KERN_INVALID_ADDRESS`, `SIGSEGV / SEGV_MAPERR`. */
  reason: string
  /** The faulting address: the data address of an access violation, else the exception address. */
  address: string
  /** The crashing thread's instruction pointer from the exception's CPU context, null when the context is missing or of an unread CPU. */
  instructionPointer: string | null
}

export interface MinidumpModule {
  /** As recorded: a full path (`C:\Game\game.exe`, `/usr/lib/libc.so.6`). */
  path: string
  /** The base name of the path (`game.exe`). */
  name: string
  baseAddress: string
  size: number
  /** From the module's VS_FIXEDFILEINFO (`5.1.2600.2180`), when it has one. */
  version: string | null
  /** Windows: timestamp and image size (`45D35F6C2d000`); ELF: the build id; Apple: the Mach-O UUID. */
  codeId: string | null
  /** Breakpad's debug identifier: the PDB GUID (or ELF build id as a GUID) and age, `5A9832E5287241C1838ED98914E9B7FF1`. */
  debugId: string | null
  /** The PDB path of the CodeView record (`c:\test_app.pdb`), or the module's own path for ELF. */
  debugFile: string | null
}

/** Where the crashing thread was executing: its instruction pointer and the module holding it. */
export interface MinidumpCrashSite {
  address: string
  /** Base name of the module that holds the address, null when none does. */
  module: string | null
  /** The address less the module's base (`0x1a2b3c`), null when no module holds it. */
  offset: string | null
}

export interface ParsedMinidump {
  header: MinidumpHeader
  system: MinidumpSystemInfo | null
  exception: MinidumpException | null
  crashSite: MinidumpCrashSite | null
  modules: MinidumpModule[]
  /** True when the dump lists more modules than the parser reads (MAX_MODULES). */
  modulesTruncated: boolean
  /** Threads in the thread list, null without one. */
  threadCount: number | null
}
