// A Sentry event → report fields (CONTRACT.md § "Sentry SDKs", "Mapping"). Events below are shaped as
// the SDKs write them (see fixtures/captured for real ones, tested in real-clients.test.ts).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { extractErrorType } from '../../src/modules/reports/error-type'
import { sectionLines } from '../../src/modules/analytics/crash.normalize'
import { topFrame } from '../../src/modules/ingest/fingerprint'
import { framesOfText, stackTraceSection } from '../../src/modules/ingest/stack-text'
import { mapSentryEvent } from '../../src/modules/sentry/protocol/event-mapping'
import { releaseVersion } from '../../src/modules/sentry/protocol/values'
import { fuzzSeed } from '../helpers/fuzz-seed'
import { threadCpuMs } from '../helpers/cpu-time'

/** The properties below run from this seed (GLITCHBOX_FUZZ_SEED replays another; fast-check prints it). */
const SEED = fuzzSeed(20261103)

const frame = (fn: string, file: string, line: number, inApp = true) => ({ function: fn, filename: file, lineno: line, in_app: inApp })

/** A chained exception as @sentry/node sends it: the cause first, the caught error last, frames outermost first. */
const chained = {
  event_id: '9EC79C33-EC99-42AB-8353-589FCB2E04DC',
  level: 'error',
  exception: {
    values: [
      { type: 'TypeError', value: 'save slot 3 is empty', stacktrace: { frames: [frame('main', 'game.js', 1), frame('openInventory', 'inventory.js', 25), frame('loadSave', 'save.js', 21)] } },
      { type: 'Error', value: 'inventory could not open', mechanism: { type: 'generic', handled: true }, stacktrace: { frames: [frame('run', 'node:internal/run', 9, false), frame('main', 'game.js', 1), frame('openInventory', 'inventory.js', 27)] } },
    ],
  },
}

describe('mapSentryEvent: title, error type and exceptions', () => {
  it('titles the event with the LAST exception and lists the chain primary first, frames innermost first', () => {
    const m = mapSentryEvent(chained)
    expect([m.title, m.errorType, m.eventId]).toEqual(['Error: inventory could not open', 'Error', '9ec79c33ec9942ab8353589fcb2e04dc'])
    expect(m.exceptions.map((e) => [e.type, e.value, e.frames.map((f) => f.function)])).toEqual([
      ['Error', 'inventory could not open', ['openInventory', 'main', 'run']],
      ['TypeError', 'save slot 3 is empty', ['loadSave', 'openInventory', 'main']],
    ])
    expect(m.exceptions[0]!.frames[0]).toEqual({ function: 'openInventory', file: 'inventory.js', line: 27, inApp: true })
  })

  it.each([
    ['type only', { exception: { values: [{ type: 'EXCEPTION_ACCESS_VIOLATION_READ' }] } }, 'EXCEPTION_ACCESS_VIOLATION_READ'],
    ['value only (a synthetic exception of captureMessage)', { message: 'Player reached the waterfall', exception: { values: [{ value: 'Player reached the waterfall', mechanism: { synthetic: true } }] } }, 'Player reached the waterfall'],
    ['message text', { message: 'Hello' }, 'Hello'],
    ['message object', { message: { formatted: 'Formatted hello', message: 'Template' } }, 'Formatted hello'],
    ['logentry.formatted', { logentry: { formatted: 'Server eu-1 is down', message: 'Server %s is down' } }, 'Server eu-1 is down'],
    ['logentry.message with %s params (sentry-cli send-event)', { logentry: { message: 'Server %s is down at %d', params: ['eu-1', 3] } }, 'Server eu-1 is down at 3'],
    ['logentry.message with {} and named params', { logentry: { message: 'Player {name} lost {}', params: { name: 'Ada' } } }, 'Player Ada lost {}'],
    ['an exception value spanning lines', { exception: [{ type: 'Error', value: 'line one\n\n   line two' }] }, 'Error: line one line two'],
    ['nothing', {}, '<unlabeled event>'],
    ['an empty exception list and a blank message', { exception: { values: [] }, message: '   ' }, '<unlabeled event>'],
  ])('titles an event with %s', (_name, event, title) => {
    expect(mapSentryEvent(event).title).toBe(title)
  })

  it('fills a hostile template with bounded text: each value cut to 1,000 characters, the message to 10,000', () => {
    const started = threadCpuMs()
    const m = mapSentryEvent({ logentry: { message: '{0}'.repeat(3000), params: ['p'.repeat(100_000)] } })
    expect(threadCpuMs() - started).toBeLessThan(200)
    expect(m.message).toHaveLength(10_000)
    expect(mapSentryEvent({ logentry: { message: '%s and %s', params: [{ a: 1 }, 'x'.repeat(5000)] } }).message).toBe(`{"a":1} and ${'x'.repeat(1000)}`)
  })

  it('cuts the title to 300 characters', () => {
    expect(mapSentryEvent({ exception: { values: [{ type: 'E', value: 'x'.repeat(5000) }] } }).title).toHaveLength(300)
  })

  it('takes frames from the thread the exception names, else from the crashed thread', () => {
    const threads = { values: [{ id: 1, current: true, stacktrace: { frames: [frame('idle', 'a.c', 1)] } }, { id: 2, crashed: true, stacktrace: { frames: [frame('WinMain', 'main.cpp', 3), frame('World::Tick', 'world.cpp', 77)] } }] }
    const crashed = mapSentryEvent({ exception: { values: [{ type: 'EXCEPTION_ACCESS_VIOLATION_READ' }] }, threads })
    expect(crashed.exceptions[0]!.frames.map((f) => f.function)).toEqual(['World::Tick', 'WinMain'])
    const named = mapSentryEvent({ exception: { values: [{ type: 'SIGSEGV', thread_id: 1 }] }, threads })
    expect(named.exceptions[0]!.frames.map((f) => f.function)).toEqual(['idle'])
  })

  it('converts native frames: package as module, numeric or hex addresses, no source file', () => {
    const m = mapSentryEvent({ exception: { values: [{ type: 'SIGABRT', stacktrace: { frames: [{ package: 'C:\\game\\game.exe', instruction_addr: 5368713216 }, { symbol: 'abort', instruction_addr: '0x7FF6A1B2C3D4', in_app: false }] } }] } })
    expect(m.exceptions[0]!.frames).toEqual([{ function: 'abort', address: '0x7ff6a1b2c3d4', inApp: false }, { module: 'C:\\game\\game.exe', address: '0x140001000' }])
    expect(m.description).toContain('--- Stack Trace ---\n  at abort (0x7ff6a1b2c3d4)\n  at ? (C:\\game\\game.exe 0x140001000)')
  })

  it('keeps the 200 innermost frames of a deep stack and the last 20 exceptions of a long chain', () => {
    const frames = Array.from({ length: 5000 }, (_, i) => frame(`f${i}`, 'deep.js', i))
    const m = mapSentryEvent({ exception: { values: Array.from({ length: 50 }, (_, i) => ({ type: `E${i}`, stacktrace: { frames } })) } })
    expect(m.exceptions.map((e) => e.type)).toEqual(Array.from({ length: 20 }, (_, i) => `E${49 - i}`))
    expect(m.exceptions[0]!.frames).toHaveLength(200)
    expect(m.exceptions[0]!.frames[0]!.function).toBe('f4999')
    expect(m.description.length).toBeLessThanOrEqual(50_000)
    expect(m.description).toMatch(/… \d+ more lines/)
  })
})

describe('mapSentryEvent: description', () => {
  const breadcrumbs = { values: [
    { timestamp: 1714557600, level: 'info', category: 'scene', message: 'Loaded scene Forest2' },
    { timestamp: '2024-05-01T10:00:05.5Z', level: 'warning', category: 'inventory', message: 'Picked up a torch', data: { slot: 3 } },
    { timestamp: '2024-05-01T10:00:06', type: 'http', category: 'fetch', data: { method: 'GET', url: 'https://api.example/save', status_code: 500 } },
    { level: 'error', message: 'no time, no category' },
    'not a breadcrumb',
    { data: {} },
  ] }

  it('writes the message, the Stack Trace (innermost first, in-app marked, causes after) and the Recent Logs', () => {
    expect(mapSentryEvent({ ...chained, breadcrumbs }).description).toBe(
      [
        'Error: inventory could not open',
        '',
        '--- Stack Trace ---',
        '  at openInventory (inventory.js:27) [in app]',
        '  at main (game.js:1) [in app]',
        '  at run (node:internal/run:9)',
        'Caused by: TypeError: save slot 3 is empty',
        '  at loadSave (save.js:21) [in app]',
        '  at openInventory (inventory.js:25) [in app]',
        '  at main (game.js:1) [in app]',
        '',
        '--- Recent Logs ---',
        '[2024-05-01 10:00:00] [Info] scene: Loaded scene Forest2',
        '[2024-05-01 10:00:05] [Warning] inventory: Picked up a torch',
        '[2024-05-01 10:00:06] [Info] fetch: GET https://api.example/save 500',
        '[Error] no time, no category',
      ].join('\n'),
    )
  })

  it('is read by the existing parsers of auto-filed errors: error type, top frame, log lines', () => {
    const m = mapSentryEvent({ ...chained, breadcrumbs })
    expect(extractErrorType(m.title, m.description)).toBe('TypeError')
    expect(extractErrorType(mapSentryEvent({ exception: { values: [{ type: 'KeyError', value: "'diamond'" }] } }).title)).toBe('KeyError')
    expect(topFrame(framesOfText(stackTraceSection(m.description)!))).toMatchObject({ function: 'openInventory', file: 'inventory.js', inApp: true })
    expect(sectionLines(m.description, 'Recent Logs')).toHaveLength(4)
  })

  it('puts the message first and the exception line after it when they differ (a logged error)', () => {
    const m = mapSentryEvent({ logentry: { formatted: 'Failed to load the world' }, exception: { values: [{ type: 'KeyError', value: "'chunk'" }] } })
    expect(m.title).toBe("KeyError: 'chunk'")
    expect(m.description).toBe("Failed to load the world\nKeyError: 'chunk'")
  })

  it('shows the event\'s own stack trace, or the crashed thread, for a message without exception', () => {
    expect(mapSentryEvent({ message: 'Hello', stacktrace: { frames: [frame('outer', 'a.js', 1), frame('inner', 'a.js', 2)] } }).description).toBe('Hello\n\n--- Stack Trace ---\n  at inner (a.js:2) [in app]\n  at outer (a.js:1) [in app]')
    expect(mapSentryEvent({ message: 'Hang', threads: [{ crashed: true, stacktrace: { frames: [frame('spin', 'b.cpp', 9, false)] } }] }).description).toBe('Hang\n\n--- Stack Trace ---\n  at spin (b.cpp:9)')
  })

  it('keeps the last 100 breadcrumbs, the latest at the end', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ message: `crumb ${i}` }))
    const logs = sectionLines(mapSentryEvent({ message: 'x', breadcrumbs: many }).description, 'Recent Logs')!
    expect(logs).toHaveLength(100)
    expect([logs[0], logs.at(-1)]).toEqual(['[Info] crumb 900', '[Info] crumb 999'])
  })

  it('is never empty: an event with nothing gets its title', () => {
    expect(mapSentryEvent({}).description).toBe('<unlabeled event>')
  })
})

describe('mapSentryEvent: report fields', () => {
  const event = {
    release: 'cave-game@1.4.2',
    environment: 'playtest',
    dist: '2024.05.01',
    level: 'FATAL',
    platform: 'csharp',
    timestamp: '2024-05-01T10:00:00.250',
    user: { id: 4242, username: 'CaveDiver', email: 'diver@example.com', ip_address: '{{auto}}' },
    contexts: {
      os: { name: 'Windows', version: '10.0.19045\n', build: '' },
      device: { model: 'Steam Deck', arch: 'x86_64', memory_size: 16 * 1024 ** 3, cpu_description: 'AMD Custom APU 0405' },
      gpu: { name: 'AMD Custom GPU 0405', memory_size: 1024 },
      runtime: { name: 'Mono', version: '6.12.0' },
      unity: { type: 'unity', editor_version: '2022.3.10f1' },
    },
    tags: { level: 'forest-2', 'unity.is_main_thread': 'true' },
    extra: { save_slot: 3 },
    request: { url: 'game://forest-2' },
    sdk: { name: 'sentry.dotnet.unity', version: '2.1.0', integrations: ['UnityLogHandler'] },
    fingerprint: ['{{ default }}', 'forest', 42, null, { x: 1 }],
    exception: { values: [{ type: 'NullReferenceException', value: 'Object reference not set', mechanism: { type: 'Unity.LogException', handled: false } }] },
  }

  it('maps release, contexts, user, level, sdk, fingerprint and timestamp', () => {
    const m = mapSentryEvent(event)
    expect({ ...m, description: undefined, exceptions: undefined, metadata: undefined }).toEqual({
      eventId: null,
      title: 'NullReferenceException: Object reference not set',
      description: undefined,
      errorType: 'NullReferenceException',
      exceptions: undefined,
      message: null,
      level: 'fatal',
      category: 'crash',
      gameVersion: '1.4.2',
      environment: 'playtest',
      platform: 'Windows',
      runtime: { name: 'Mono', version: '6.12.0' },
      browser: null,
      osInfo: 'Windows 10.0.19045',
      deviceInfo: 'Steam Deck, AMD Custom APU 0405, x86_64, 16 GB RAM, GPU: AMD Custom GPU 0405',
      playerId: '4242',
      reporterName: 'CaveDiver',
      reporterEmail: 'diver@example.com',
      metadata: undefined,
      fingerprint: ['{{ default }}', 'forest', '42'],
      timestamp: new Date('2024-05-01T10:00:00.250Z'),
      sdk: { name: 'sentry.dotnet.unity', version: '2.1.0' },
      autoCaptured: true,
    })
    expect(m.metadata).toEqual({ tags: event.tags, environment: 'playtest', level: 'FATAL', sdk: event.sdk, dist: '2024.05.01', request: event.request, extra: event.extra, contexts: event.contexts })
  })

  it('finds a runtime context by its type, and falls back to the event platform as the runtime; the platform is the OS alone (issue 29, item 1)', () => {
    expect(mapSentryEvent({ contexts: { rust: { type: 'runtime', name: 'rustc', version: '1.96.1' } } }).runtime).toEqual({ name: 'rustc', version: '1.96.1' })
    expect(mapSentryEvent({ contexts: { os: { name: 'Android', version: '14' } }, platform: 'java' }).platform).toBe('Android')
    expect(mapSentryEvent({ platform: 'native' })).toMatchObject({ platform: null, runtime: { name: 'native', version: '' } })
    expect(mapSentryEvent({ contexts: { os: { raw_description: 'Microsoft Windows 10.0.19045' } } }).osInfo).toBe('Microsoft Windows 10.0.19045')
  })

  it("takes the platform from the game's platform or os tag when the event has no OS context (issue 29, item 1)", () => {
    expect(mapSentryEvent({ platform: 'node', tags: { platform: 'Steam Deck' } }).platform).toBe('Steam Deck')
    expect(mapSentryEvent({ platform: 'node', tags: { os: 'Windows' } }).platform).toBe('Windows')
    expect(mapSentryEvent({ contexts: { os: { name: 'Windows' }, runtime: { name: 'node', version: 'v20.20.2' } }, tags: { platform: 'Windows' } })).toMatchObject({ platform: 'Windows', runtime: { name: 'node', version: 'v20.20.2' } })
  })

  it("reads a web game's browser and OS from the user agent the browser SDK sends, and keeps `javascript` out of both (issue 29, item 1)", () => {
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.33 Safari/537.36'
    const m = mapSentryEvent({ platform: 'javascript', request: { url: 'https://game.example/', headers: { 'User-Agent': chrome } } })
    expect(m).toMatchObject({ platform: 'Windows', osInfo: 'Windows 10.0', browser: { name: 'Chrome', version: '131.0.6778.33' }, runtime: null })
    const agents: [string, string, string][] = [
      ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Linux', 'Firefox'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'macOS', 'Safari'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'iOS', 'Safari'],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Android', 'Chrome'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70', 'Windows', 'Edge'],
    ]
    for (const [agent, os, browser] of agents) {
      const read = mapSentryEvent({ platform: 'javascript', request: { headers: [['user-agent', agent]] } })
      expect([read.platform, read.browser?.name]).toEqual([os, browser])
    }
    // A browser context, when an SDK sends one, wins over the agent.
    expect(mapSentryEvent({ contexts: { browser: { name: 'Firefox', version: '128.0' } }, request: { headers: { 'User-Agent': chrome } } }).browser).toEqual({ name: 'Firefox', version: '128.0' })
  })

  it.each([
    ['a captured exception (handled)', { exception: { values: [{ type: 'E', mechanism: { handled: true } }] } }, false],
    ['a captured message', { message: 'hi', level: 'info' }, false],
    ['an unhandled exception', { exception: { values: [{ type: 'E', mechanism: { type: 'onerror', handled: false } }] } }, true],
    ['an unhandled cause in a chain', { exception: { values: [{ type: 'Cause', mechanism: { handled: false } }, { type: 'E' }] } }, true],
    ['a fatal message', { message: 'bye', level: 'fatal' }, true],
  ])('tells %s as autoCaptured %s', (_name, e, auto) => {
    expect(mapSentryEvent(e).autoCaptured).toBe(auto)
  })

  it.each([
    ['seconds', 1714557600.5, '2024-05-01T10:00:00.500Z'],
    ['RFC 3339 with a zone', '2024-05-01T12:00:00+02:00', '2024-05-01T10:00:00.000Z'],
    ['RFC 3339 without a zone (UTC)', '2024-05-01T10:00:00.123456', '2024-05-01T10:00:00.123Z'],
  ])('reads a timestamp in %s', (_name, timestamp, iso) => {
    expect(mapSentryEvent({ timestamp }).timestamp?.toISOString()).toBe(iso)
  })

  it.each([['text', 'yesterday'], ['NaN', Number.NaN], ['negative', -5], ['huge', 1e20], ['object', {}]])('takes a %s timestamp as absent', (_name, timestamp) => {
    expect(mapSentryEvent({ timestamp }).timestamp).toBeNull()
  })

  it('drops an email that is not one, and user fields of the wrong type', () => {
    const m = mapSentryEvent({ user: { id: { nested: 1 }, username: ['a'], name: 'Fallback Name', email: 'not-an-email' } })
    expect([m.playerId, m.reporterName, m.reporterEmail]).toEqual([null, 'Fallback Name', null])
  })

  it('cuts metadata to 16 KB by dropping the biggest parts first, the same way every time', () => {
    const big = {
      tags: { level: 'forest-2' },
      environment: 'playtest',
      extra: { savegame: 'x'.repeat(40_000), small: 1 },
      contexts: { device: { model: 'Deck' }, huge: { blob: 'y'.repeat(14_000) }, os: { name: 'Windows' } },
      request: { data: 'z'.repeat(3000) },
    }
    const m = mapSentryEvent(big)
    expect(Buffer.byteLength(JSON.stringify(m.metadata))).toBeLessThanOrEqual(16 * 1024)
    expect(m.metadata).toEqual({ tags: { level: 'forest-2' }, environment: 'playtest', extra: { small: 1 }, contexts: { device: { model: 'Deck' }, os: { name: 'Windows' } }, request: { data: 'z'.repeat(3000) } })
    expect(mapSentryEvent(structuredClone(big)).metadata).toEqual(m.metadata)
  })

  it('gives null metadata when the event has none of its fields', () => {
    expect(mapSentryEvent({ message: 'x' }).metadata).toBeNull()
  })
})

describe('mapSentryEvent: hostile input', () => {
  it('never throws, whatever JSON-like value it is given', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 6, withNullPrototype: true, withBigInt: false }), (value) => {
        const m = mapSentryEvent(value)
        expect(m.title.length).toBeGreaterThan(0)
        expect(m.description.length).toBeGreaterThan(0)
      }),
      { numRuns: 500, seed: SEED },
    )
  })

  /** An event whose fields hold arbitrary values of arbitrary types. */
  const field = fc.oneof(fc.anything({ maxDepth: 4 }), fc.string(), fc.integer(), fc.constant(null))
  const hostileFrame = fc.dictionary(fc.constantFrom('function', 'filename', 'abs_path', 'module', 'package', 'lineno', 'colno', 'instruction_addr', 'in_app', 'symbol'), field)
  const hostileEvent = fc.record(
    {
      event_id: field,
      message: field,
      logentry: fc.oneof(field, fc.record({ message: fc.string(), params: field, formatted: field })),
      level: field,
      release: field,
      timestamp: field,
      fingerprint: fc.oneof(field, fc.array(field)),
      user: fc.oneof(field, fc.dictionary(fc.constantFrom('id', 'username', 'name', 'email'), field)),
      contexts: fc.oneof(field, fc.dictionary(fc.constantFrom('os', 'device', 'gpu', 'runtime', 'other'), fc.oneof(field, fc.dictionary(fc.string(), field)))),
      exception: fc.oneof(field, fc.record({ values: fc.oneof(field, fc.array(fc.oneof(field, fc.record({ type: field, value: field, thread_id: field, mechanism: field, stacktrace: fc.oneof(field, fc.record({ frames: fc.oneof(field, fc.array(fc.oneof(field, hostileFrame))) })) })))) })),
      threads: fc.oneof(field, fc.array(fc.oneof(field, fc.record({ id: field, crashed: fc.oneof(fc.boolean(), field), stacktrace: fc.oneof(field, fc.record({ frames: fc.array(hostileFrame) })) })))),
      breadcrumbs: fc.oneof(field, fc.array(fc.oneof(field, fc.dictionary(fc.constantFrom('timestamp', 'level', 'category', 'message', 'data', 'type'), field)))),
      tags: field,
      extra: field,
      sdk: field,
    },
    { requiredKeys: [] },
  )

  it('never throws on events with wrong types anywhere, and keeps its limits', () => {
    fc.assert(
      fc.property(hostileEvent, (event) => {
        const m = mapSentryEvent(event)
        expect(m.title.length).toBeLessThanOrEqual(300)
        expect(m.description.length).toBeLessThanOrEqual(50_000)
        expect(Buffer.byteLength(JSON.stringify(m.metadata))).toBeLessThanOrEqual(16 * 1024)
        for (const e of m.exceptions) for (const f of e.frames) if (f.line !== undefined) expect(Number.isSafeInteger(f.line)).toBe(true)
      }),
      { numRuns: 500, seed: SEED },
    )
  })

  it('maps a 1 MB event of huge lists in bounded time', () => {
    const frames = Array.from({ length: 20_000 }, (_, i) => ({ function: `f${i}`, filename: 'x.js', lineno: i }))
    const event = {
      exception: { values: Array.from({ length: 5 }, () => ({ type: 'E', value: 'v', stacktrace: { frames } })) },
      breadcrumbs: Array.from({ length: 20_000 }, (_, i) => ({ message: `m${i}`, category: 'c' })),
      extra: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'.repeat(50)])),
    }
    const started = threadCpuMs()
    const m = mapSentryEvent(event)
    expect(threadCpuMs() - started).toBeLessThan(1000)
    expect(m.exceptions).toHaveLength(5)
    expect(Buffer.byteLength(JSON.stringify(m.metadata))).toBeLessThanOrEqual(16 * 1024)
  })
})

describe('release', () => {
  it('keeps the version of a package@version release, so Sentry and Glitchbox SDKs of one game agree', () => {
    expect(releaseVersion('cave-game@1.4.2+77')).toBe('1.4.2+77')
    expect(releaseVersion('@scope/game@2.0.0')).toBe('2.0.0')
    expect(releaseVersion('1.4.2')).toBe('1.4.2')
    expect(releaseVersion('game@')).toBe('game@')
    expect(releaseVersion('  ')).toBeNull()
    expect(releaseVersion(42)).toBeNull()
  })
})
