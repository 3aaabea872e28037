import { describe, expect, it } from 'vitest'
import { splitDescription } from './description-sections'

describe('splitDescription', () => {
  it('splits an auto-filed error into text, stack trace and logs', () => {
    const d =
      'NullReferenceException: Object reference not set\n\n--- Stack Trace ---\n  at PlayerController.Update () in Assets/Scripts/PlayerController.cs:42\n  at Game.Tick ()\n\n--- Recent Logs ---\n[Log] Scene loaded: Level2\n[Warning] Missing texture\n'
    expect(splitDescription(d)).toEqual({
      text: 'NullReferenceException: Object reference not set',
      stackTrace: '  at PlayerController.Update () in Assets/Scripts/PlayerController.cs:42\n  at Game.Tick ()',
      recentLogs: '[Log] Scene loaded: Level2\n[Warning] Missing texture',
      otherThreads: null,
    })
  })

  it('leaves a description without markers as it is', () => {
    expect(splitDescription('The boss gets stuck in the wall.\n')).toEqual({ text: 'The boss gets stuck in the wall.', stackTrace: null, recentLogs: null, otherThreads: null })
  })

  it('takes the sections in either order, and either alone', () => {
    expect(splitDescription('x\n--- Recent Logs ---\nlog1\n--- Stack Trace ---\nat A()')).toEqual({ text: 'x', stackTrace: 'at A()', recentLogs: 'log1', otherThreads: null })
    expect(splitDescription('--- Stack Trace ---\nat A()')).toEqual({ text: '', stackTrace: 'at A()', recentLogs: null, otherThreads: null })
  })

  it('does not split at a marker quoted inside a sentence', () => {
    const d = 'The SDK wrote "--- Stack Trace ---" in the chat window'
    expect(splitDescription(d)).toEqual({ text: d, stackTrace: null, recentLogs: null, otherThreads: null })
  })

  it('accepts CRLF line ends, case and spacing variants', () => {
    expect(splitDescription('t\r\n---  stack trace ---\r\nat B()\r\n')).toEqual({ text: 't', stackTrace: 'at B()', recentLogs: null, otherThreads: null })
  })

  it('keeps an empty section as empty text, not as missing', () => {
    expect(splitDescription('t\n--- Recent Logs ---\n')).toEqual({ text: 't', stackTrace: null, recentLogs: '', otherThreads: null })
  })

  it("keeps a native crash's other threads apart from its crashed stack", () => {
    const d = 'Crash\n\n--- Stack Trace ---\n  at CrashFunction (game.exe+0x10)\n\n--- Other Threads ---\nThread 7\n  at ntdll.dll+0xeb94\n\n--- Recent Logs ---\nx'
    expect(splitDescription(d)).toMatchObject({ stackTrace: '  at CrashFunction (game.exe+0x10)', otherThreads: 'Thread 7\n  at ntdll.dll+0xeb94', recentLogs: 'x' })
  })
})
