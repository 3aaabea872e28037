import { describe, expect, it } from 'vitest'
import { threadCpuMs } from '../../helpers/cpu-time'
import { MAX_FRAMES, parsePortableCallStack, parseUnrealCallStack } from '../../../src/modules/sentry/unreal/unreal-callstack'

describe('parseUnrealCallStack', () => {
  it.each([
    ['Game!AMyActor::Tick() [D:\\Src\\MyActor.cpp:42]', { function: 'AMyActor::Tick', module: 'Game', file: 'D:\\Src\\MyActor.cpp', line: 42 }],
    ['UnrealEditor_Core!FDebug::CheckVerifyFailedImpl2() [D:\\build\\AssertionMacros.cpp:775]', { function: 'FDebug::CheckVerifyFailedImpl2', module: 'UnrealEditor_Core', file: 'D:\\build\\AssertionMacros.cpp', line: 775 }],
    ['KERNELBASE!UnknownFunction []', { module: 'KERNELBASE', inApp: false }],
    ['0x00007ff995ea8114 UnrealEditor-SlateCore.dll!UnknownFunction []', { module: 'UnrealEditor-SlateCore.dll', address: '0x7ff995ea8114' }],
    ['0x000000007b00cdb7 kernelbase.dll!UnknownFunction []', { module: 'kernelbase.dll', address: '0x7b00cdb7', inApp: false }],
    ['[Callstack] 0x00000000418C0119 OrionClient.exe!FOutputDeviceWindowsError::Serialize() [d:\\epic\\windowsplatformoutputdevices.cpp:120]', { function: 'FOutputDeviceWindowsError::Serialize', module: 'OrionClient.exe', address: '0x418c0119', file: 'd:\\epic\\windowsplatformoutputdevices.cpp', line: 120 }],
    ['libUE4Editor-Core.so!FGenericPlatformMisc::RaiseException(unsigned int) [/home/u/GenericPlatformMisc.cpp:442]', { function: 'FGenericPlatformMisc::RaiseException(unsigned int)', module: 'libUE4Editor-Core.so', file: '/home/u/GenericPlatformMisc.cpp', line: 442 }],
    ['libc.so.6!UnknownFunction(0x3ef20)', { module: 'libc.so.6', inApp: false }],
    ['MyProject!AActor::BeginPlay()', { function: 'AActor::BeginPlay', module: 'MyProject' }],
    ['MyProject!operator!=() [a.cpp]', { function: 'operator!=', module: 'MyProject', file: 'a.cpp' }],
    ['ntdll', { module: 'ntdll', inApp: false }],
    ['AActor::BeginPlay() Address = 0x10bc5fc29 (filename not found) [in YetAnotherMac]', { function: 'AActor::BeginPlay', module: 'YetAnotherMac', address: '0x10bc5fc29' }],
    ['FFoo::Bar(int) Address = 0x1 (/Users/u/Foo.cpp:17) [in Game]', { function: 'FFoo::Bar(int)', module: 'Game', address: '0x1', file: '/Users/u/Foo.cpp', line: 17 }],
    ['-[FCocoaGameThread main] Address = 0x1095aab27 (filename not found) [in YetAnotherMac]', { function: '-[FCocoaGameThread main]', module: 'YetAnotherMac', address: '0x1095aab27' }],
    ['something unexpected here', { function: 'something unexpected here' }],
  ])('%s', (line, frame) => {
    expect(parseUnrealCallStack(line)).toEqual([frame])
  })

  it('keeps the printed order (innermost first), skips blank lines and CRLF endings', () => {
    expect(parseUnrealCallStack('A!f()\r\n\r\n  B!g() [x.cpp:1]\r\nkernel32\r\n')).toEqual([
      { function: 'f', module: 'A' },
      { function: 'g', module: 'B', file: 'x.cpp', line: 1 },
      { module: 'kernel32', inApp: false },
    ])
  })

  it('keeps the innermost frames of a huge stack and stays linear on hostile lines', () => {
    expect(parseUnrealCallStack('A!f()\n'.repeat(10_000))).toHaveLength(MAX_FRAMES)
    const hostile = [' Address = 0x1 ('.repeat(200), ') [in ]'.repeat(300), ':1'.repeat(1000), '!'.repeat(5000), '[a ['.repeat(1000)].join('\n')
    const started = threadCpuMs()
    for (let i = 0; i < 50; i++) parseUnrealCallStack(`${hostile}\n`.repeat(50))
    expect(threadCpuMs() - started).toBeLessThan(3000)
  })
})

describe('parsePortableCallStack', () => {
  it('adds base and offset, reads the module before each entry, skips placeholders', () => {
    expect(parsePortableCallStack('YetAnother 0x0000000025ca0000 + 703394 YetAnother 0x0000000025ca0000 + 281f2ee ntdll 0x0000000010060000 + 71471')).toEqual([
      { module: 'YetAnother', address: '0x263a3394' },
      { module: 'YetAnother', address: '0x284bf2ee' },
      { module: 'ntdll', address: '0x100d1471', inApp: false },
    ])
    expect(parsePortableCallStack('0x00000000ffffffff + ffffffff 0x00000000ffffffff + ffffffff')).toEqual([])
    expect(parsePortableCallStack('0x10 + 5')).toEqual([{ address: '0x15' }])
  })

  it('stays linear on a long run without entries', () => {
    const started = threadCpuMs()
    expect(parsePortableCallStack('x'.repeat(600_000))).toEqual([])
    expect(parsePortableCallStack('0x1 + '.repeat(100_000))).toEqual([])
    expect(threadCpuMs() - started).toBeLessThan(2000)
  })
})
