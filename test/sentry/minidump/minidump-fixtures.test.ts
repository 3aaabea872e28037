// Real minidumps from public test data, checked against values their own projects assert or print
// (rust-minidump's tests and minidump-stackwalk snapshots, Breakpad's minidump_dump output and
// processor tests, symbolic's tests), never against this parser's own output. Where each expected
// value comes from is named beside it; test/sentry/fixtures/minidumps/README.md names the files.
import { describe, expect, it } from 'vitest'
import { parseMinidump } from '../../../src/modules/sentry/minidump/minidump-parser'
import { minidumpTitle, minidumpTopFrame } from '../../../src/modules/sentry/minidump/minidump-title'
import { fixture } from './fixture'

describe('Windows x86: rust-minidump test.dmp (= Breakpad minidump2.dmp)', () => {
  const dump = parseMinidump(fixture('test.dmp'))

  it('reads the header as minidump_dump prints it', () => {
    // Breakpad src/processor/testdata/minidump2.dump.out
    expect(dump.header).toEqual({ signature: 'MDMP', version: 0x5128a793, streamCount: 9, timestamp: 0x45d35f73 })
  })

  it('reads the system info', () => {
    // rust-minidump test_system_info / test_processor, minidump2.dump.out
    expect(dump.system).toMatchObject({
      arch: 'x86',
      cpuCount: 1,
      cpuVendor: 'GenuineIntel',
      cpuInfo: 'GenuineIntel family 6 model 13 stepping 8',
      os: 'Windows',
      osVersion: '5.1.2600',
      osBuild: 'Service Pack 2',
      distribution: null,
    })
  })

  it('names the access violation by its access type and reads the data address and EIP', () => {
    // test_exception: thread 0xbf4, code 0xc0000005, eip 0x40429e; json snapshot: EXCEPTION_ACCESS_VIOLATION_WRITE at 0x45
    expect(dump.exception).toEqual({
      threadId: 0xbf4,
      code: 0xc0000005,
      flags: 0,
      name: 'EXCEPTION_ACCESS_VIOLATION_WRITE',
      reason: 'EXCEPTION_ACCESS_VIOLATION_WRITE',
      address: '0x45',
      instructionPointer: '0x40429e',
    })
    expect(dump.threadCount).toBe(2)
  })

  it('reads all 13 modules with code ids, debug ids, debug files and versions', () => {
    // test_module_list and the json snapshot's modules
    expect(dump.modules.map((m) => m.path)).toEqual([
      'c:\\test_app.exe',
      'C:\\WINDOWS\\system32\\ntdll.dll',
      'C:\\WINDOWS\\system32\\kernel32.dll',
      'C:\\WINDOWS\\system32\\ole32.dll',
      'C:\\WINDOWS\\system32\\advapi32.dll',
      'C:\\WINDOWS\\system32\\rpcrt4.dll',
      'C:\\WINDOWS\\system32\\gdi32.dll',
      'C:\\WINDOWS\\system32\\user32.dll',
      'C:\\WINDOWS\\system32\\msvcrt.dll',
      'C:\\WINDOWS\\system32\\imm32.dll',
      'C:\\WINDOWS\\system32\\dbghelp.dll',
      'C:\\WINDOWS\\system32\\version.dll',
      'C:\\WINDOWS\\system32\\psapi.dll',
    ])
    expect(dump.modules[0]).toEqual({
      path: 'c:\\test_app.exe',
      name: 'test_app.exe',
      baseAddress: '0x400000',
      size: 0x2d000,
      version: null,
      codeId: '45D35F6C2d000',
      debugId: '5A9832E5287241C1838ED98914E9B7FF1',
      debugFile: 'c:\\test_app.pdb',
    })
    expect(dump.modules[12]).toMatchObject({ baseAddress: '0x76bf0000', size: 0xb000, codeId: '411096CAb000', debugFile: 'psapi.pdb', debugId: 'A5C3A1F9689F43D8AD228A09293889702', version: '5.1.2600.2180' })
    expect(dump.modules.map((m) => m.version)).toEqual([null, '5.1.2600.2180', '5.1.2600.2945', '5.1.2600.2726', '5.1.2600.2180', '5.1.2600.2180', '5.1.2600.2818', '5.1.2600.2622', '7.0.2600.2180', '5.1.2600.2180', '5.1.2600.2180', '5.1.2600.2180', '5.1.2600.2180'])
    expect(dump.modulesTruncated).toBe(false)
  })

  it('places the crash in its module, titles it and gives the top frame for grouping', () => {
    // json snapshot, frame 0: module test_app.exe, module_offset 0x0000429e
    expect(dump.crashSite).toEqual({ address: '0x40429e', module: 'test_app.exe', offset: '0x429e' })
    expect(minidumpTitle(dump)).toBe('EXCEPTION_ACCESS_VIOLATION_WRITE at test_app.exe+0x429e')
    expect(minidumpTopFrame(dump)).toEqual({ module: 'test_app.exe', address: '0x429e' })
  })
})

describe('Windows 10 x86: symbolic windows/mini.dmp (breakpad-tools crash.exe)', () => {
  const dump = parseMinidump(fixture('windows-mini.dmp'))

  it('reads what symbolic\'s processor snapshot shows', () => {
    // symbolic-minidump/tests/snapshots/test_processor__process_state_windows.snap
    expect(dump.header.timestamp).toBe(1521713273)
    expect(dump.system).toMatchObject({ arch: 'x86', os: 'Windows', osVersion: '10.0.14393', cpuInfo: 'GenuineIntel family 6 model 63 stepping 2', cpuCount: 2 })
    expect(dump.exception).toMatchObject({ threadId: 1636, name: 'EXCEPTION_ACCESS_VIOLATION_WRITE', address: '0x45' })
    expect(dump.threadCount).toBe(4)
    // Frame 0 (trust: Context): instruction 2763325 in crash.exe at 2752512
    expect(dump.exception!.instructionPointer).toBe(`0x${(2763325).toString(16)}`)
    expect(dump.crashSite).toEqual({ address: '0x2a2a3d', module: 'crash.exe', offset: `0x${(2763325 - 2752512).toString(16)}` })
    expect(dump.modules[0]).toEqual({
      path: 'C:\\projects\\breakpad-tools\\windows\\Release\\crash.exe',
      name: 'crash.exe',
      baseAddress: `0x${(2752512).toString(16)}`,
      size: 36864,
      version: null,
      codeId: '5AB380779000',
      debugId: '3249D99D0C4049318610F4E4FB0B69361',
      debugFile: 'C:\\projects\\breakpad-tools\\windows\\Release\\crash.pdb',
    })
    expect(dump.modules.find((m) => m.name === 'rpcrt4.dll')).toMatchObject({ codeId: '5A49BB75c1000', debugFile: 'wrpcrt4.pdb', debugId: 'AE131C6727A74FA19916B5A4AEF411901' })
  })
})

describe('Windows 10 amd64: Breakpad tiny-exe-fastfail.dmp', () => {
  const dump = parseMinidump(fixture('tiny-exe-fastfail.dmp'))

  it('names the fast-fail code and reads RIP from the amd64 context', () => {
    // minidump_processor_unittest TestFastFailException: crashed, 4 threads, FAST_FAIL_FATAL_APP_EXIT
    expect(dump.threadCount).toBe(4)
    expect(dump.exception).toMatchObject({ name: 'EXCEPTION_STACK_BUFFER_OVERRUN', reason: 'EXCEPTION_STACK_BUFFER_OVERRUN / FAST_FAIL_FATAL_APP_EXIT' })
    expect(dump.system).toMatchObject({ arch: 'amd64', os: 'Windows' })
    // On Windows the exception record's own address is the faulting instruction (Breakpad's
    // minidump_dump prints both); RIP read from the CONTEXT at its offset must equal it.
    const bytes = fixture('tiny-exe-fastfail.dmp')
    const view = new DataView(bytes.buffer, bytes.byteOffset)
    const dirRva = view.getUint32(12, true)
    const entries = Array.from({ length: view.getUint32(8, true) }, (_, i) => [view.getUint32(dirRva + i * 12, true), view.getUint32(dirRva + i * 12 + 8, true)])
    const exceptionRva = entries.find(([type]) => type === 6)![1]!
    expect(dump.exception!.instructionPointer).toBe(`0x${view.getBigUint64(exceptionRva + 24, true).toString(16)}`)
    expect(dump.crashSite?.module).toBe('tiny.exe')
  })
})

describe('Linux amd64: rust-minidump linux-mini.dmp (Breakpad client)', () => {
  const dump = parseMinidump(fixture('linux-mini.dmp'))

  it('reads the OS from uname, the distribution from lsb-release and the CPU', () => {
    // test_linux_os_version; linux json snapshot: system_info and lsb_release
    expect(dump.system).toEqual({
      arch: 'amd64',
      cpuCount: 4,
      cpuVendor: 'GenuineIntel',
      cpuInfo: 'family 6 model 70 stepping 1',
      // read by hand from the MD_LINUX_CPU_INFO stream (`strings linux-mini.dmp | grep 'model name'`)
      cpuModel: 'Intel(R) Core(TM) i7-4960HQ CPU @ 2.60GHz',
      os: 'Linux',
      osVersion: '4.9.60-linuxkit-aufs',
      osBuild: '#1 SMP Mon Nov 6 16:00:12 UTC 2017',
      distribution: { id: 'Ubuntu', release: '16.04', codename: 'xenial', description: 'Ubuntu 16.04.3 LTS' },
    })
  })

  it('reads the signal, the fault address and RIP', () => {
    // linux json snapshot: crash_info SIGSEGV at 0x45, crashing thread 1304, frame 0 rip 0x401d72 in crash+0x1d72
    expect(dump.exception).toEqual({ threadId: 1304, code: 11, flags: 0, name: 'SIGSEGV', reason: 'SIGSEGV', address: '0x45', instructionPointer: '0x401d72' })
    expect(dump.crashSite).toEqual({ address: '0x401d72', module: 'crash', offset: '0x1d72' })
    expect(minidumpTitle(dump)).toBe('SIGSEGV at crash+0x1d72')
    expect(dump.threadCount).toBe(1)
  })

  it('reads ELF build ids as code ids and as debug ids', () => {
    // linux json snapshot: modules (base, end, code_id, debug_id)
    expect(dump.modules.map((m) => m.name)).toEqual(['crash', 'libm-2.23.so', 'libc-2.23.so', 'libgcc_s.so.1', 'libstdc++.so.6.0.21', 'libpthread-2.23.so', 'ld-2.23.so', 'linux-gate.so'])
    expect(dump.modules[0]).toMatchObject({ baseAddress: '0x400000', size: 0x41a000 - 0x400000, codeId: 'f1c3bcc0279865fe3058404b2831d9e64135386c', debugId: 'C0BCC3F19827FE653058404B2831D9E60', version: null })
    expect(dump.modules[2]).toMatchObject({ baseAddress: '0x7f514015d000', codeId: 'b5381a457906d279073822a5ceb24c4bfef94ddb', debugId: '451A38B5067979D2073822A5CEB24C4B0' })
  })
})

describe('Linux amd64: symbolic crash_linux.dmp', () => {
  it('reads what symbolic\'s Python tests assert', () => {
    // symbolic py/tests/test_minidump.py test_linux_without_cfi
    const dump = parseMinidump(fixture('crash_linux.dmp'))
    expect(dump.header.timestamp).toBe(1505305040)
    expect(dump.threadCount).toBe(1)
    expect(dump.exception).toMatchObject({ threadId: 133, name: 'SIGSEGV', address: '0x0' })
    expect(dump.system).toMatchObject({ os: 'Linux', osVersion: '4.9.46-moby', osBuild: '#1 SMP Thu Sep 7 02:53:42 UTC 2017', arch: 'amd64', cpuInfo: 'family 6 model 70 stepping 1', cpuCount: 4 })
    const module = dump.modules.find((m) => m.debugId === 'D2554CDB926136C4B9766A086583B9B50')
    expect(module).toMatchObject({
      baseAddress: `0x${(4194304).toString(16)}`,
      size: 196608,
      codeId: 'db4c55d26192c436b9766a086583b9b5a6d2e271',
      path: '/breakpad/examples/target/crash_linux',
      debugFile: '/breakpad/examples/target/crash_linux',
    })
  })
})

describe('macOS amd64: symbolic crash_macos.dmp', () => {
  it('reads what symbolic\'s Python tests assert, with the Mach exception named', () => {
    // symbolic py/tests/test_minidump.py test_macos_without_cfi
    const dump = parseMinidump(fixture('crash_macos.dmp'))
    expect(dump.header.timestamp).toBe(1505305307)
    expect(dump.threadCount).toBe(1)
    expect(dump.exception).toMatchObject({ threadId: 775, name: 'EXC_BAD_ACCESS', reason: 'EXC_BAD_ACCESS / KERN_INVALID_ADDRESS', address: `0x${(69).toString(16)}` })
    expect(dump.system).toMatchObject({ os: 'macOS', osVersion: '10.12.6', osBuild: '16G29', arch: 'amd64', cpuInfo: 'family 6 model 70 stepping 1', cpuCount: 8 })
    const module = dump.modules.find((m) => m.debugId === '3F58BC3DEABE3361B5FB52A6762985980')
    expect(module).toMatchObject({ baseAddress: `0x${(4329947136).toString(16)}`, size: 172032, path: '/Users/jauer/Coding/breakpad/examples/target/crash_macos', debugFile: 'crash_macos' })
    // A Mach-O's code id is its UUID, the debug id without the age (rust-minidump's code_identifier).
    expect(module!.codeId).toBe('3f58bc3deabe3361b5fb52a676298598')
    // The test program writes to 0x45 in its own code, so the crash is in crash_macos.
    expect(dump.crashSite?.module).toBe('crash_macos')
    expect(minidumpTitle(dump)).toMatch(/^EXC_BAD_ACCESS \/ KERN_INVALID_ADDRESS at crash_macos\+0x[0-9a-f]+$/)
  })
})
