import { describe, expect, it } from 'vitest'
import { parseUnrealCrash } from '../../../src/modules/sentry/unreal/unreal-crash'
import { UnrealCrashError } from '../../../src/modules/sentry/unreal/unreal-errors'
import { compress, fixture, writeContainer } from './container-writer'

// Expected values from symbolic's tests of the same files (see test/sentry/fixtures/unreal/README.md).
const DECOMPRESSED_SIZE = 440_752

describe('the Windows fixture (UE 4.20, an assertion)', async () => {
  const crash = await parseUnrealCrash(fixture('unreal_crash'))
  const context = crash.context!

  it('unpacks the legacy container into its four files, in order, with the header read from the end', () => {
    expect(crash.layout).toBe('legacy')
    expect(crash.directoryName).toBe('UE4CC-Windows-379993BB42BD8FBED67986857D8844B5_0000')
    expect(crash.fileName).toBe('UE4CC-Windows-379993BB42BD8FBED67986857D8844B5_0000.ue4crash')
    expect(crash.files.map((f) => [f.index, f.name, f.kind])).toEqual([
      [0, 'CrashContext.runtime-xml', 'context'],
      [1, 'CrashReportClient.ini', 'config'],
      [2, 'MyProject.log', 'log'],
      [3, 'UE4Minidump.dmp', 'minidump'],
    ])
    const xml = crash.files[0]!.bytes
    expect(String.fromCharCode(xml[0]!)).toBe('<')
    expect(String.fromCharCode(xml[xml.length - 3]!)).toBe('>') // two line breaks after the closing tag
  })

  it('finds the minidump by its signature and the log by its name', () => {
    expect(crash.minidump?.name).toBe('UE4Minidump.dmp')
    expect(crash.minidump?.bytes.length).toBe(410_700)
    expect(new TextDecoder().decode(crash.minidump!.bytes.subarray(0, 4))).toBe('MDMP')
    expect(crash.appleCrashReport).toBeUndefined()
    expect(crash.logs.map((f) => f.name)).toEqual(['MyProject.log'])
    expect(new TextDecoder().decode(crash.logs[0]!.bytes)).toContain('LogD3D11RHI: Chosen D3D11 Adapter: 0')
  })

  it('gives every file as a view into one decoded buffer, not a copy', () => {
    const buffer = crash.files[0]!.bytes.buffer
    expect(crash.files.every((f) => f.bytes.buffer === buffer)).toBe(true)
    expect(buffer.byteLength).toBeGreaterThanOrEqual(DECOMPRESSED_SIZE)
  })

  it('reads the crash context fields symbolic reads', () => {
    expect(context).toMatchObject({
      crashGuid: 'UE4CC-Windows-379993BB42BD8FBED67986857D8844B5_0000',
      crashType: 'Assert',
      isAssert: true,
      isEnsure: false,
      isCrash: true,
      errorMessage: 'Assertion failed: false [File:C:\\Users\\bruno\\OneDrive\\Documents\\Unreal Projects\\MyProject\\Source\\MyProject\\NewActorComponent.cpp] [Line: 21] test',
      gameName: 'UE4-MyProject',
      executableName: 'MyProject',
      buildConfiguration: 'Development',
      buildVersion: '++UE4+Release-4.20-CL-4369336',
      engineVersion: '4.20.3-4369336+++UE4+Release-4.20',
      engineMode: 'Game',
      platformName: 'WindowsNoEditor',
      platformNameIni: 'Windows',
      platformFullName: 'Win64 [Windows 10  64b]',
      osVersion: 'Windows 10',
      userName: 'bruno',
      machineId: '6B5EF42F48669C4D7DFE11B7F59BB6AC',
      loginId: '6b5ef42f48669c4d7dfe11b7f59bb6ac',
      epicAccountId: '2e7d369327054a448be6c8d3601213cb',
      cpuVendor: 'GenuineIntel',
      cpuBrand: 'Intel(R) Core(TM) i5-8600K CPU @ 3.60GHz',
      gpuBrand: 'NVIDIA GeForce GTX 1080',
      cpuCores: 6,
      ramBytes: 17_112_477_696,
      secondsSinceStart: 0,
      crashReportClientVersion: '1.0',
    })
    expect(context.exceptionType).toBeUndefined() // an assertion names no exception
    expect(context.userDescription).toBeUndefined() // `<UserDescription />`
    expect(context.callStack?.split('\n')).toHaveLength(16)
  })

  it('converts TimeOfCrash (.NET ticks) to the moment the log file shows', () => {
    // symbolic's log test reads 2018-10-29T16:56:37Z and :38Z from MyProject.log around the crash.
    expect(context.crashedAt).toBe('2018-10-29T16:56:38.805Z')
  })

  it('parses the printed call stack into frames, innermost first', () => {
    expect(context.frames).toHaveLength(16)
    expect(context.frames[0]).toEqual({ function: 'FDebug::AssertFailed', module: 'MyProject' })
    expect(context.frames[1]).toEqual({ function: 'AActor::BeginPlay', module: 'MyProject' })
    expect(context.frames[13]).toEqual({
      function: '__scrt_common_main_seh',
      module: 'MyProject',
      file: 'f:\\dd\\vctools\\crt\\vcstartup\\src\\startup\\exe_common.inl',
      line: 288,
    })
    expect(context.frames.slice(14)).toEqual([
      { module: 'kernel32', inApp: false },
      { module: 'ntdll', inApp: false },
    ])
  })
})

describe('the Mac fixture (UE 4.21, SEGV with a player description)', async () => {
  const crash = await parseUnrealCrash(fixture('unreal_crash_apple'))
  const context = crash.context!

  it('unpacks its six files and finds the Apple crash report by its content, not its name', () => {
    expect(crash.layout).toBe('legacy')
    expect(crash.directoryName).toBe('')
    expect(crash.files.map((f) => [f.name, f.kind])).toEqual([
      ['CrashReportClient.ini', 'config'],
      ['minidump.dmp', 'apple_crash_report'],
      ['info.txt', 'other'],
      ['YetAnotherMac.log', 'log'],
      ['CrashContext.runtime-xml', 'context'],
      ['Diagnostics.txt', 'other'],
    ])
    expect(crash.minidump).toBeUndefined()
    expect(crash.appleCrashReport?.bytes.length).toBe(91_392)
  })

  it('reads the exception type, the description and the Mac platform', () => {
    expect(context).toMatchObject({
      crashGuid: 'UE4CC-Mac-C4D618F60F46F8E48017259A587AC54E_0000',
      crashType: 'Crash',
      isAssert: false,
      isEnsure: false,
      isCrash: true,
      errorMessage: 'SEGV_MAPERR at 0x88',
      exceptionType: 'SEGV_MAPERR',
      userDescription: 'asdsadasd',
      gameName: 'UE4-YetAnotherMac',
      buildVersion: '++UE4+Release-4.21-CL-4613538',
      engineVersion: '4.21.1-4613538+++UE4+Release-4.21',
      platformName: 'MacNoEditor',
      platformNameIni: 'Mac',
      platformFullName: 'Mac',
      gpuBrand: 'Radeon Pro 560',
      ramBytes: 17_179_869_184,
      loginId: 'ebff51ef3c4878627823eebd9ff40eb4',
      machineId: 'EBFF51EF3C4878627823EEBD9FF40EB4',
    })
    expect(context.osVersion).toBeUndefined() // both OSVersion elements are empty
  })

  it('parses the Mac call stack form with addresses, and decodes entities in names', () => {
    expect(context.frames).toHaveLength(19)
    expect(context.frames[0]).toEqual({ function: 'AActor::IsPendingKillPending() const', module: 'YetAnotherMac', address: '0x1090a0132' })
    expect(context.frames[7]).toEqual({
      function: 'UEngine::LoadMap(FWorldContext&, FURL, UPendingNetGame*, FString&)',
      module: 'YetAnotherMac',
      address: '0x10ce4f8f5',
    })
    expect(context.frames[15]).toEqual({ module: 'Foundation', address: '0x7fff36d4a234', inApp: false }) // `Unknown()`
    expect(context.frames[18]).toEqual({ function: 'thread_start', module: 'libsystem_pthread.dylib', address: '0x7fff61c7f425', inApp: false })
  })
})

describe('the CR1 layout', () => {
  it('reads the same files and context from a CR1 container as from the legacy one', async () => {
    const legacy = await parseUnrealCrash(fixture('unreal_crash'))
    const cr1 = await parseUnrealCrash(compress(writeContainer(legacy.files, { layout: 'CR1', directoryName: legacy.directoryName })))
    expect(cr1.layout).toBe('CR1')
    expect(cr1.directoryName).toBe(legacy.directoryName)
    expect(cr1.fileName).toBe(legacy.fileName)
    expect(cr1.files.map((f) => [f.index, f.name, f.kind, f.bytes.length])).toEqual(legacy.files.map((f) => [f.index, f.name, f.kind, f.bytes.length]))
    expect(Buffer.from(cr1.minidump!.bytes).equals(Buffer.from(legacy.minidump!.bytes))).toBe(true)
    expect(cr1.context).toEqual(legacy.context)
  })

  it('accepts a container without a crash context, and says there is none', async () => {
    const crash = await parseUnrealCrash(compress(writeContainer([{ name: 'Game.log', bytes: new TextEncoder().encode('Log file open') }])))
    expect(crash.context).toBeUndefined()
    expect(crash.logs).toHaveLength(1)
  })
})

describe('the decoded-size cap', () => {
  it('fits a crash exactly at the cap and refuses it one byte below (symbolic\'s limits)', async () => {
    await expect(parseUnrealCrash(fixture('unreal_crash'), { maxDecodedBytes: DECOMPRESSED_SIZE })).resolves.toBeDefined()
    const refused = await parseUnrealCrash(fixture('unreal_crash'), { maxDecodedBytes: DECOMPRESSED_SIZE - 1 }).catch((e) => e)
    expect(refused).toBeInstanceOf(UnrealCrashError)
    expect(refused).toMatchObject({ reason: 'too_large', status: 413 })
  })

  it('refuses a context file that fails to parse, with the reason', async () => {
    const body = compress(writeContainer([{ name: 'CrashContext.runtime-xml', bytes: new TextEncoder().encode('<FGenericCrashContext><RuntimeProperties>') }]))
    await expect(parseUnrealCrash(body)).rejects.toMatchObject({ reason: 'bad_context', status: 400, message: 'the crash context ends inside <RuntimeProperties>' })
  })
})
