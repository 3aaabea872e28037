// What real Sentry clients sent (recorded by capture/capture.ts into fixtures/captured; versions in
// fixtures/README.md) read through the whole protocol layer: body decoding, key, envelope, mapping.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeBody, mapSentryEvent, parseEnvelope, parseFeedback, parseJsonObject, parseSessionAggregates, parseSessionUpdate, sentryAuthOf } from '../../src/modules/sentry/protocol'
import { streamOf } from './sentry-helpers'

const dir = join(import.meta.dirname, 'fixtures', 'captured')
const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as {
  versions: Record<string, string>
  requests: { file: string; client: string; path: string; query: string; headers: Record<string, string>; items: string[] }[]
}
const KEY = 'sk_live_capture0key'

/** The request recorded under number `n` (its file name starts with it), decoded as a route would. */
async function request(n: number) {
  const r = index.requests.find((q) => q.file.startsWith(`${String(n).padStart(2, '0')}-`))!
  const raw = readFileSync(join(dir, r.file))
  const body = await decodeBody(streamOf(raw, 1024).stream, r.headers['content-encoding'])
  const auth = sentryAuthOf({ url: `http://127.0.0.1${r.path}${r.query}`, headers: new Headers(r.headers) })
  return { ...r, body, auth }
}
const envelope = async (n: number) => parseEnvelope((await request(n)).body)
const eventOf = async (n: number) => mapSentryEvent((await envelope(n)).items.find((i) => i.type === 'event')!.json)
const storeEvent = async (n: number) => mapSentryEvent(parseJsonObject((await request(n)).body, '/store/ body'))

describe('real clients: what each sent and how it reads', () => {
  it('recorded each client once per scenario step, in order', () => {
    expect(index.requests.map((r) => `${r.client} ${r.path} ${r.items.join('+')}`)).toEqual([
      'node /api/42/envelope/ event',
      'node /api/42/envelope/ event',
      'node /api/42/envelope/ feedback',
      'node /api/42/envelope/ event+attachment+attachment',
      'node /api/42/envelope/ session',
      'node /api/42/envelope/ event',
      'python /api/42/store/ ',
      'python /api/42/envelope/ session',
      'python /api/42/store/ ',
      'python /api/42/envelope/ sessions',
      'cli-send-event /api/42/envelope/ event',
      'cli-send-envelope /api/42/envelope/ event+attachment',
    ])
  })

  it('finds every client\'s key: @sentry/node in the query string, python and sentry-cli in X-Sentry-Auth', async () => {
    const sources = await Promise.all(index.requests.map(async (_, i) => (await request(i + 1)).auth))
    expect(sources.map((a) => `${a?.key} ${a?.source} ${a?.client}`)).toEqual([
      ...Array(6).fill(`${KEY} query sentry.javascript.node/${index.versions['@sentry/node']}`),
      ...Array(4).fill(`${KEY} x-sentry-auth sentry.python/${index.versions['python3-sentry-sdk']}`),
      ...Array(2).fill(`${KEY} x-sentry-auth sentry-cli/x86_64`),
    ])
  })

  it('@sentry/node captureException of an error with a cause: the chain, the player, the contexts, the breadcrumbs', async () => {
    const m = await eventOf(1)
    expect(m).toMatchObject({ title: 'Error: inventory could not open', errorType: 'Error', level: 'error', category: null, gameVersion: '1.4.2', environment: 'playtest', playerId: 'player-7', reporterName: 'CaveDiver', reporterEmail: 'diver@example.com', autoCaptured: false, sdk: { name: 'sentry.javascript.node', version: index.versions['@sentry/node'] } })
    expect(m.exceptions.map((e) => `${e.type}: ${e.value}`)).toEqual(['Error: inventory could not open', 'TypeError: save slot 3 is empty'])
    expect(m.exceptions[0]!.frames[0]).toMatchObject({ function: 'openInventory', inApp: true })
    expect(m.exceptions[1]!.frames[0]).toMatchObject({ function: 'loadSave', inApp: true })
    // Issue 29, item 1: the platform is the player's OS (the machine's distribution here), node the runtime.
    expect(m.platform).toBe('Debian')
    expect(m.runtime).toMatchObject({ name: 'node', version: expect.stringMatching(/^v\d+\./) })
    expect(m.description).toMatch(/^Error: inventory could not open\n\n--- Stack Trace ---\n {2}at openInventory \(.*node-client\.mjs:\d+:\d+\) \[in app\]\n/)
    expect(m.description).toContain('\nCaused by: TypeError: save slot 3 is empty\n  at loadSave (')
    expect(m.description).toMatch(/--- Recent Logs ---\n\[[\d-]+ [\d:]+\] \[Info\] scene: Loaded scene Forest2\n\[[\d-]+ [\d:]+\] \[Warning\] inventory: Picked up a torch$/)
    expect(m.metadata).toMatchObject({ tags: { level: 'forest-2' }, dist: '2024.05.01', contexts: { runtime: { name: 'node' } } })
  })

  it('@sentry/node captureMessage: titled by the message (a synthetic exception without type)', async () => {
    const m = await eventOf(2)
    expect(m).toMatchObject({ title: 'Player reached the waterfall', message: 'Player reached the waterfall', errorType: '', level: 'warning', autoCaptured: false })
    expect(m.description.startsWith('Player reached the waterfall\n\n--- Stack Trace ---\n')).toBe(true)
  })

  it('@sentry/node captureFeedback: a feedback item naming the first error\'s event id', async () => {
    const first = await envelope(1)
    const { items } = await envelope(3)
    expect(items.map((i) => i.type)).toEqual(['feedback'])
    expect(parseFeedback('feedback', items[0]!.json)).toEqual({
      message: 'The inventory never opened after the cave.',
      name: 'CaveDiver',
      email: 'diver@example.com',
      associatedEventId: first.header.eventId,
      url: 'game://forest-2',
      gameVersion: '1.4.2',
    })
  })

  it('@sentry/node with attachments: the event and both files, the body gzip-compressed past 32 KB', async () => {
    const r = await request(4)
    expect(r.headers['content-encoding']).toBe('gzip')
    const { header, items } = parseEnvelope(r.body)
    expect(items.map((i) => [i.type, i.filename, i.contentType, i.payload.length])).toEqual([
      ['event', null, null, items[0]!.payload.length],
      ['attachment', 'save-3.json', 'application/json', 21],
      ['attachment', 'player.log', null, 44_000],
    ])
    expect(Buffer.from(items[1]!.payload).toString()).toBe('{"slot":3,"items":[]}')
    expect(mapSentryEvent(items[0]!.json)).toMatchObject({ title: 'RangeError: torch count out of range', eventId: header.eventId })
  })

  it('@sentry/node session ending crashed, then the fatal uncaught error that crashed it', async () => {
    const { items } = await envelope(5)
    expect(parseSessionUpdate(items[0]!.json)).toMatchObject({ status: 'crashed', outcome: 'crash', init: true, errors: 1, distinctId: 'player-7', release: '1.4.2', environment: 'playtest' })
    expect(await eventOf(6)).toMatchObject({ title: 'ReferenceError: player is not defined', level: 'fatal', category: 'crash', autoCaptured: true })
  })

  it('python3-sentry-sdk: a gzip /store/ event with local variables (dropped) and breadcrumbs, nulls where fields are empty', async () => {
    const r = await request(7)
    expect([r.headers['content-encoding'], r.headers['content-type']]).toEqual(['gzip', 'application/json'])
    const m = await storeEvent(7)
    expect(m).toMatchObject({ title: "KeyError: 'diamond'", errorType: 'KeyError', playerId: 'player-8', reporterName: 'Miner', platform: null, runtime: { name: 'python', version: '' }, sdk: { name: 'sentry.python', version: index.versions['python3-sentry-sdk'] } })
    expect(m.exceptions[0]!.frames.map((f) => [f.function, f.file, f.inApp])).toEqual([
      ['dig', 'python-client.py', true],
      ['<module>', 'python-client.py', true],
    ])
    expect(m.description).toMatch(/--- Recent Logs ---\n\[[\d-]+ [\d:]+\] \[Info\] game\.world: Loaded chunk 12,7\n\[[\d-]+ [\d:]+\] \[Debug\] input: Pressed jump$/)
    expect((await storeEvent(9)).title).toBe('RuntimeError: request failed')
  })

  it('python3-sentry-sdk sessions: an exited session (dashed sid) and request-mode aggregates', async () => {
    const session = parseSessionUpdate((await envelope(8)).items[0]!.json)
    expect(session).toMatchObject({ status: 'exited', outcome: 'clean', distinctId: 'player-8', release: '1.4.2' })
    expect(session!.sessionId).toMatch(/^[0-9a-f]{32}$/)
    expect(parseSessionAggregates((await envelope(10)).items[0]!.json)).toMatchObject([{ exited: 2, errored: 1, crashed: 0, release: '1.4.2', environment: 'playtest' }])
  })

  it('sentry-cli send-event: a logentry message with params, tags and extra', async () => {
    const m = await eventOf(11)
    expect(m).toMatchObject({ title: 'Server eu-1 is down', errorType: '', gameVersion: '1.4.2', environment: 'playtest', sdk: { name: 'sentry-cli' } })
    expect(m.metadata).toMatchObject({ tags: { region: 'eu' }, extra: { build: '2024.05.01' } })
  })

  it('sentry-cli send-envelope: a native fatal event with an attachment, passed through', async () => {
    const { header, items } = await envelope(12)
    expect(header.eventId).toBe('4b7f3c1e0d2a4b5c9e8f7a6b5c4d3e2f')
    expect(items.map((i) => [i.type, i.filename, i.attachmentType])).toEqual([
      ['event', null, null],
      ['attachment', 'game.log', 'event.attachment'],
    ])
    expect(Buffer.from(items[1]!.payload).toString()).toBe('hello\nworld')
    const m = mapSentryEvent(items[0]!.json)
    expect(m).toMatchObject({ title: 'EXCEPTION_ACCESS_VIOLATION_READ: Fatal Error: EXCEPTION_ACCESS_VIOLATION_READ', category: 'crash', autoCaptured: true })
    expect(m.exceptions[0]!.frames).toEqual([
      { function: 'World::Tick', module: 'game.exe', address: '0x140002a00', inApp: true },
      { function: 'main', module: 'game.exe', address: '0x140001000', inApp: true },
    ])
  })
})
