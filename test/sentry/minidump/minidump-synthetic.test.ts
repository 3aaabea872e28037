// Dumps written field by field by minidump-builder.ts after the documented layouts: the CPU
// contexts no public fixture here covers (arm, both arm64 layouts), the exception names of each
// platform, and the caps. Expected values are the ones written, not parser output.
import { describe, expect, it } from 'vitest'
import { MAX_MODULES } from '../../../src/modules/sentry/minidump/module-list'
import { parseMinidump } from '../../../src/modules/sentry/minidump/minidump-parser'
import { minidumpTitle, minidumpTopFrame } from '../../../src/modules/sentry/minidump/minidump-title'
import { amd64Context, arm64Context, arm64OldContext, armContext, bpel, buildMinidump, rsds, x86Context } from './minidump-builder'

const WINDOWS = 2
const MACOS = 0x8101
const IOS = 0x8102
const LINUX = 0x8201
const ANDROID = 0x8203
const game = (base: bigint, size = 0x200000) => ({ base, size, path: 'C:\\Games\\Studio\\game.exe', timestamp: 0x65a1b2c3 })

describe('instruction pointer from each CPU context', () => {
  it.each([
    { cpu: 'x86', arch: 0, context: x86Context(0x0041a2b3), ip: '0x41a2b3' },
    { cpu: 'x86 on 64-bit Windows', arch: 10, context: x86Context(0x0041a2b3), ip: '0x41a2b3' },
    { cpu: 'amd64', arch: 9, context: amd64Context(0x7ff6a1b2c3d4n), ip: '0x7ff6a1b2c3d4' },
    { cpu: 'arm', arch: 5, context: armContext(0x0041a2b3), ip: '0x41a2b3' },
    { cpu: 'arm with Breakpad\'s old flag', arch: 5, context: armContext(0x0041a2b3, 0x42), ip: '0x41a2b3' },
    { cpu: 'arm64 (Windows/Crashpad layout)', arch: 12, context: arm64Context(0x5555_0041_a2b3n), ip: '0x55550041a2b3' },
    { cpu: 'arm64 (Breakpad\'s old layout)', arch: 0x8003, context: arm64OldContext(0x5555_0041_a2b3n), ip: '0x55550041a2b3' },
  ])('$cpu', ({ arch, context, ip }) => {
    const dump = parseMinidump(buildMinidump({ arch, exception: { code: 0xc0000005, context } }))
    expect(dump.exception?.instructionPointer).toBe(ip)
  })

  it('trusts no context whose CPU flag is another CPU\'s, nor one too short to hold the register', () => {
    const x86AsAmd64 = parseMinidump(buildMinidump({ arch: 9, exception: { code: 0xc0000005, context: amd64Context(0x1234n, 0x10003) } }))
    expect(x86AsAmd64.exception?.instructionPointer).toBeNull()
    const short = parseMinidump(buildMinidump({ arch: 12, exception: { code: 11, context: arm64Context(0x1234n).subarray(0, 200) } }))
    expect(short.exception?.instructionPointer).toBeNull()
    const unknownCpu = parseMinidump(buildMinidump({ arch: 0x8005, exception: { code: 11, context: new Uint8Array(600).fill(0xff) } }))
    expect(unknownCpu.exception?.instructionPointer).toBeNull()
  })

  it('cuts 32-bit addresses that a writer sign-extended', () => {
    const dump = parseMinidump(buildMinidump({ arch: 0, exception: { code: 0xc0000005, parameters: [0n, 0xffffffff80001234n], context: x86Context(0x401000) } }))
    expect(dump.exception?.address).toBe('0x80001234')
  })
})

describe('exception names', () => {
  const windows = (code: number, parameters: bigint[] = []) => parseMinidump(buildMinidump({ platform: WINDOWS, exception: { code, parameters } })).exception!
  it.each([
    [0xc0000005, [0n, 0x10n], 'EXCEPTION_ACCESS_VIOLATION_READ', 'EXCEPTION_ACCESS_VIOLATION_READ', '0x10'],
    [0xc0000005, [1n, 0x20n], 'EXCEPTION_ACCESS_VIOLATION_WRITE', 'EXCEPTION_ACCESS_VIOLATION_WRITE', '0x20'],
    [0xc0000005, [8n, 0x30n], 'EXCEPTION_ACCESS_VIOLATION_EXEC', 'EXCEPTION_ACCESS_VIOLATION_EXEC', '0x30'],
    [0xc0000005, [], 'EXCEPTION_ACCESS_VIOLATION', 'EXCEPTION_ACCESS_VIOLATION', '0x0'],
    [0xc0000006, [0n, 0x40n, 0xc000009cn], 'EXCEPTION_IN_PAGE_ERROR_READ', 'EXCEPTION_IN_PAGE_ERROR_READ / 0xc000009c', '0x40'],
    [0xc00000fd, [], 'EXCEPTION_STACK_OVERFLOW', 'EXCEPTION_STACK_OVERFLOW', '0x0'],
    [0xc0000094, [], 'EXCEPTION_INT_DIVIDE_BY_ZERO', 'EXCEPTION_INT_DIVIDE_BY_ZERO', '0x0'],
    [0xc000001d, [], 'EXCEPTION_ILLEGAL_INSTRUCTION', 'EXCEPTION_ILLEGAL_INSTRUCTION', '0x0'],
    [0x80000003, [], 'EXCEPTION_BREAKPOINT', 'EXCEPTION_BREAKPOINT', '0x0'],
    [0xc0000409, [2n], 'EXCEPTION_STACK_BUFFER_OVERRUN', 'EXCEPTION_STACK_BUFFER_OVERRUN / FAST_FAIL_STACK_COOKIE_CHECK_FAILURE', '0x0'],
    [0xc0000374, [], 'STATUS_HEAP_CORRUPTION', 'STATUS_HEAP_CORRUPTION', '0x0'],
    [0xe06d7363, [], 'UNHANDLED_CPP_EXCEPTION', 'UNHANDLED_CPP_EXCEPTION', '0x0'],
    [0xe0001234, [], 'unknown 0xe0001234', 'unknown 0xe0001234', '0x0'],
  ] as const)('Windows 0x%s', (code, parameters, name, reason, address) => {
    expect(windows(code, [...parameters])).toMatchObject({ code, name, reason, address })
  })

  const signal = (platform: number, code: number, flags: number) => parseMinidump(buildMinidump({ platform, exception: { code, flags, address: 0xdeadn } })).exception!
  it.each([
    [LINUX, 11, 1, 'SIGSEGV', 'SIGSEGV / SEGV_MAPERR'],
    [LINUX, 11, 2, 'SIGSEGV', 'SIGSEGV / SEGV_ACCERR'],
    [LINUX, 11, 0x80, 'SIGSEGV', 'SIGSEGV / SI_KERNEL'],
    [ANDROID, 6, 0, 'SIGABRT', 'SIGABRT'],
    [ANDROID, 6, -6 >>> 0, 'SIGABRT', 'SIGABRT / SI_TKILL'],
    [LINUX, 7, 1, 'SIGBUS', 'SIGBUS / BUS_ADRALN'],
    [LINUX, 4, 1, 'SIGILL', 'SIGILL / ILL_ILLOPC'],
    [LINUX, 8, 1, 'SIGFPE', 'SIGFPE / FPE_INTDIV'],
    [LINUX, 5, 1, 'SIGTRAP', 'SIGTRAP / TRAP_BRKPT'],
    [LINUX, 0xffffffff, 0, 'DUMP_REQUESTED', 'DUMP_REQUESTED'],
    [LINUX, 77, 3, 'unknown 0x0000004d', 'unknown 0x0000004d / 0x00000003'],
  ] as const)('signal on %s: %s/%s', (platform, code, flags, name, reason) => {
    expect(signal(platform, code, flags)).toMatchObject({ name, reason, address: '0xdead' })
  })

  const mach = (platform: number, arch: number, code: number, flags: number) => parseMinidump(buildMinidump({ platform, arch, exception: { code, flags } })).exception!
  it.each([
    [MACOS, 9, 1, 1, 'EXC_BAD_ACCESS', 'EXC_BAD_ACCESS / KERN_INVALID_ADDRESS'],
    [MACOS, 9, 1, 2, 'EXC_BAD_ACCESS', 'EXC_BAD_ACCESS / KERN_PROTECTION_FAILURE'],
    [MACOS, 9, 1, 13, 'EXC_BAD_ACCESS', 'EXC_BAD_ACCESS / EXC_I386_GPFLT'],
    [IOS, 12, 1, 0x101, 'EXC_BAD_ACCESS', 'EXC_BAD_ACCESS / EXC_ARM_DA_ALIGN'],
    [IOS, 12, 2, 1, 'EXC_BAD_INSTRUCTION', 'EXC_BAD_INSTRUCTION / EXC_ARM_UNDEFINED'],
    [MACOS, 9, 3, 1, 'EXC_ARITHMETIC', 'EXC_ARITHMETIC / EXC_I386_DIV'],
    [MACOS, 12, 5, 0x10002, 'EXC_SOFTWARE', 'EXC_SOFTWARE / SIGABRT'],
    [IOS, 12, 6, 1, 'EXC_BREAKPOINT', 'EXC_BREAKPOINT / EXC_ARM_BREAKPOINT'],
    [MACOS, 12, 12, 2 << 29, 'EXC_GUARD', 'EXC_GUARD / GUARD_TYPE_FD'],
    [MACOS, 12, 10, 0, 'EXC_CRASH', 'EXC_CRASH / 0x00000000'],
  ] as const)('Mach exception on %s (arch %s): %s/%s', (platform, arch, code, flags, name, reason) => {
    expect(mach(platform, arch, code, flags)).toMatchObject({ name, reason })
  })
})

describe('system info', () => {
  it.each([
    [0, 'x86'], [9, 'amd64'], [5, 'arm'], [12, 'arm64'], [0x8003, 'arm64'], [1, 'mips'], [0x8006, 'riscv64'], [0x7777, 'unknown (0x7777)'],
  ] as const)('architecture %s is %s', (arch, name) => {
    expect(parseMinidump(buildMinidump({ arch })).system?.arch).toBe(name)
  })

  it.each([
    [WINDOWS, 'Windows'], [MACOS, 'macOS'], [IOS, 'iOS'], [LINUX, 'Linux'], [ANDROID, 'Android'], [0x8206, 'Fuchsia'], [0x1234, 'unknown (0x1234)'],
  ] as const)('platform %s is %s', (platform, os) => {
    expect(parseMinidump(buildMinidump({ platform })).system?.os).toBe(os)
  })

  it('reads an Android kernel from uname and a distribution from os-release keys', () => {
    const osRelease = new TextEncoder().encode('NAME="Debian GNU/Linux"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n')
    const dump = parseMinidump(buildMinidump({ platform: ANDROID, arch: 12, osVersion: [0, 0, 0], csd: 'Linux 6.1.0-18-arm64 #1 SMP Debian 6.1.76-1 (2024-02-01) aarch64', streams: [[0x47670005, osRelease]] }))
    expect(dump.system).toMatchObject({
      osVersion: '6.1.0-18-arm64',
      osBuild: '#1 SMP Debian 6.1.76-1 (2024-02-01)',
      distribution: { id: 'debian', release: '12', codename: 'bookworm', description: 'Debian GNU/Linux 12 (bookworm)' },
      cpuInfo: null,
      cpuVendor: null,
    })
  })
})

describe('modules', () => {
  const guid = Uint8Array.from([0xe5, 0x32, 0x98, 0x5a, 0x72, 0x28, 0xc1, 0x41, 0x83, 0x8e, 0xd9, 0x89, 0x14, 0xe9, 0xb7, 0xff])

  it('reads a PDB 7.0 record, the image code id and the version, and finds the crashing module', () => {
    const dump = parseMinidump(buildMinidump({
      arch: 9,
      exception: { code: 0xc0000005, parameters: [0n, 0x10n], context: amd64Context(0x7ff6_011a_2b3cn) },
      modules: [
        { base: 0x7ffb_0000_0000n, size: 0x1000, path: 'C:\\Windows\\System32\\ntdll.dll' },
        { ...game(0x7ff6_0000_0000n), size: 0x0200_0000, cv: rsds(guid, 0x1f, 'D:\\build\\game.pdb'), version: [(1 << 16) | 4, (2 << 16) | 77] },
      ],
    }))
    expect(dump.modules[1]).toEqual({
      path: 'C:\\Games\\Studio\\game.exe',
      name: 'game.exe',
      baseAddress: '0x7ff600000000',
      size: 0x0200_0000,
      version: '1.4.2.77',
      codeId: '65A1B2C32000000',
      debugId: '5A9832E5287241C1838ED98914E9B7FF1F',
      debugFile: 'D:\\build\\game.pdb',
    })
    expect(minidumpTitle(dump)).toBe('EXCEPTION_ACCESS_VIOLATION_READ at game.exe+0x11a2b3c')
    expect(minidumpTopFrame(dump)).toEqual({ module: 'game.exe', address: '0x11a2b3c' })
  })

  it('reads a short ELF build id padded into the debug id', () => {
    const dump = parseMinidump(buildMinidump({ platform: ANDROID, arch: 12, modules: [{ base: 0x7a00000000n, size: 0x10000, path: '/data/app/lib/arm64/libgame.so', cv: bpel(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8])) }] }))
    expect(dump.modules[0]).toMatchObject({ name: 'libgame.so', codeId: '0102030405060708', debugId: '040302010605080700000000000000000', debugFile: '/data/app/lib/arm64/libgame.so' })
  })

  it('titles a crash outside every module by its address, and a dump without exception as such', () => {
    const outside = parseMinidump(buildMinidump({ arch: 0, exception: { code: 0xc0000005, parameters: [8n, 0x12f000n], context: x86Context(0x12f000) }, modules: [game(0x400000n)] }))
    expect(minidumpTitle(outside)).toBe('EXCEPTION_ACCESS_VIOLATION_EXEC at 0x12f000')
    expect(minidumpTopFrame(outside)).toEqual({ address: '0x12f000' })
    const none = parseMinidump(buildMinidump({ modules: [game(0x400000n)] }))
    expect(minidumpTitle(none)).toBe('Minidump without an exception record')
    expect(minidumpTopFrame(none)).toBeNull()
  })

  it('without a context, places a Windows crash at the exception address (the faulting instruction)', () => {
    const dump = parseMinidump(buildMinidump({ arch: 0, exception: { code: 0xc0000094, address: 0x401234n }, modules: [game(0x400000n)] }))
    expect(dump.exception?.instructionPointer).toBeNull()
    expect(dump.crashSite).toEqual({ address: '0x401234', module: 'game.exe', offset: '0x1234' })
    const linux = parseMinidump(buildMinidump({ platform: LINUX, exception: { code: 11, address: 0x401234n }, modules: [game(0x400000n)] }))
    expect(linux.crashSite).toBeNull()
  })

  it('reads a module list with padding after its count', () => {
    const modules = [game(0x400000n), { base: 0x7ffb00000000n, size: 0x1000, path: 'C:\\Windows\\System32\\ntdll.dll' }]
    const dump = parseMinidump(buildMinidump({ modules, padModuleList: true }))
    expect(dump.modules.map((m) => [m.name, m.baseAddress])).toEqual([['game.exe', '0x400000'], ['ntdll.dll', '0x7ffb00000000']])
  })

  it(`reads at most ${MAX_MODULES} modules and says there were more`, () => {
    const modules = Array.from({ length: MAX_MODULES + 1 }, (_, i) => ({ base: BigInt(0x10000000 + i * 0x10000), size: 0x10000, path: `/lib/lib${i}.so` }))
    const dump = parseMinidump(buildMinidump({ platform: LINUX, modules }))
    expect(dump.modules).toHaveLength(MAX_MODULES)
    expect(dump.modules.at(-1)?.path).toBe(`/lib/lib${MAX_MODULES - 1}.so`)
    expect(dump.modulesTruncated).toBe(true)
  })

  it('cuts a module path of megabytes to the first 2048 characters', () => {
    const dump = parseMinidump(buildMinidump({ modules: [{ base: 0x400000n, size: 0x1000, path: 'A'.repeat(300_000) }] }))
    expect(dump.modules[0]!.path).toBe('A'.repeat(2048))
  })
})
