import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../helpers/test-app'
import { sqlRows } from '../../helpers/sql-rows'
import { setProject } from '../../sdk/sdk-helpers'
import { CAPTURE_KEY, capturedProject, post, replay } from './sentry-routes-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

/** An envelope as text: a header line, then each item's header and payload lines. */
const envelope = (header: object, ...items: [object, string | object][]) =>
  [JSON.stringify(header), ...items.flatMap(([h, p]) => [JSON.stringify(h), typeof p === 'string' ? p : JSON.stringify(p)])].join('\n')

const event = (o: Record<string, unknown> = {}) => ({
  event_id: 'a'.repeat(32),
  level: 'error',
  release: '1.2.0',
  exception: { values: [{ type: 'NullReferenceException', value: 'Object reference not set', stacktrace: { frames: [{ function: 'Main', filename: 'Main.cs', in_app: true }, { function: 'Inventory.Refresh', filename: 'Inventory.cs', lineno: 42, in_app: true }] } }] },
  ...o,
})

describe('what real Sentry clients sent (recorded bodies, test/sentry/fixtures/captured)', () => {
  it('files an @sentry/node exception with its cause, user, release, breadcrumbs and contexts, and answers {id}', async () => {
    await capturedProject(t)
    const res = await replay(t, '01')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/) })
    const [r] = (await sqlRows(t, 'SELECT * FROM reports'))
    expect(r).toMatchObject({ title: 'Error: inventory could not open', source: 'system', game_version: '1.4.2', player_id: 'player-7', error_type: 'Error', grouping_label: 'Error at openInventory (node-client.mjs)' })
    expect(r!.description).toContain('--- Stack Trace ---')
    expect(r!.description).toContain('--- Recent Logs ---')
    expect(r!.description).toContain('TypeError')
    const [o] = (await sqlRows(t, 'SELECT client, event_id, metadata FROM report_occurrences'))
    expect(o).toMatchObject({ client: 'sentry.javascript.node 11.12.0', event_id: res.json.id })
    expect(JSON.parse(o!.metadata)).toMatchObject({ environment: 'playtest', level: 'error' })
  })

  it('keeps attachments with the occurrence, and gzip bodies are decoded', async () => {
    await capturedProject(t)
    expect((await replay(t, '04')).status).toBe(200)
    expect((await sqlRows(t, 'SELECT a.file_name, a.mime_type FROM attachments a JOIN report_occurrences o ON o.id = a.occurrence_id ORDER BY a.file_name'))).toEqual([
      { file_name: 'player.log', mime_type: 'text/plain' },
      { file_name: 'save-3.json', mime_type: 'application/json' },
    ])
  })

  it('files feedback as a player report linked to the report of the event it names (a comment on it, the link on both)', async () => {
    const { owner, project } = await capturedProject(t)
    await replay(t, '01')
    expect((await replay(t, '03')).status).toBe(200)
    const feedback = (await sqlRows(t, "SELECT report_number, title, source, reporter_name, reporter_email, feedback_for FROM reports WHERE source = 'user'"))[0]!
    expect(feedback).toMatchObject({ title: 'The inventory never opened after the cave.', reporter_name: 'CaveDiver', feedback_for: (await sqlRows(t, 'SELECT id FROM reports WHERE report_number = 1'))[0]!.id })
    const crash = await t.request('GET', `/api/projects/${project.slug}/bugs/1`, { token: owner.token })
    expect(crash.body.data.comments).toEqual([expect.objectContaining({ is_internal: true, body: expect.stringContaining('The inventory never opened after the cave.') })])
    expect(crash.body.data.bug.feedback).toEqual([{ report_number: feedback.report_number, title: feedback.title }])
    const read = await t.request('GET', `/api/projects/${project.slug}/bugs/${feedback.report_number}`, { token: owner.token })
    expect(read.body.data.bug.feedback_for).toEqual({ report_number: 1, title: 'Error: inventory could not open' })
  })

  it('records sessions: a crashed one lowers the crash-free rate, exited and aggregated ones end cleanly', async () => {
    const { owner, project } = await capturedProject(t)
    for (const name of ['05', '08', '10']) expect((await replay(t, name)).status).toBe(200)
    expect((await sqlRows(t, 'SELECT crashed, count(*) AS n FROM play_sessions WHERE ended_at IS NOT NULL GROUP BY crashed ORDER BY crashed'))).toEqual([
      { crashed: 0, n: 4 },
      { crashed: 1, n: 1 },
    ])
    t.runner.drain?.()
    const health = await t.request('GET', `/api/projects/${project.slug}/release-health`, { token: owner.token })
    expect(health.body.data.versions).toEqual([expect.objectContaining({ version: '1.4.2', sessions: 5, crashed_sessions: 1, crash_free_rate: 0.8 })])
  })

  it('files Python store bodies (gzip JSON, X-Sentry-Auth) and sentry-cli events and envelopes', async () => {
    await capturedProject(t)
    for (const name of ['07', '09', '11', '12']) expect((await replay(t, name)).status).toBe(200)
    expect((await sqlRows(t, 'SELECT title FROM reports ORDER BY report_number')).map((r) => r.title)).toEqual([
      "KeyError: 'diamond'",
      'RuntimeError: request failed',
      'Server eu-1 is down',
      expect.stringContaining('EXCEPTION_ACCESS_VIOLATION_READ'),
    ])
  })
})

describe('POST /api/{dsn_id}/envelope/ and /store/', () => {
  it('groups events by their frames, honours the client fingerprint ({{ default }} expanded) and maps level fatal to a crash', async () => {
    await capturedProject(t)
    // Three events (three event ids: one id sent twice is one event).
    let n = 0
    const send = (e: Record<string, unknown>) => {
      const id = String(++n).repeat(32)
      return post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, envelope({ event_id: id }, [{ type: 'event' }, { ...e, event_id: id }]), { 'content-type': 'text/plain;charset=UTF-8' })
    }
    expect((await send(event())).status).toBe(200)
    expect((await send(event({ exception: { values: [{ type: 'NullReferenceException', value: 'another message', stacktrace: { frames: [{ function: 'Inventory.Refresh', filename: 'Inventory.cs', lineno: 99, in_app: true }] } }] } }))).status).toBe(200)
    expect((await send(event({ level: 'fatal', fingerprint: ['{{ default }}', 'boss'] }))).status).toBe(200)
    expect((await sqlRows(t, 'SELECT category, occurrence_count, grouping_label FROM reports ORDER BY report_number'))).toEqual([
      { category: 'other', occurrence_count: 2, grouping_label: 'NullReferenceException at Inventory.Refresh (Inventory.cs)' },
      { category: 'crash', occurrence_count: 1, grouping_label: 'NullReferenceException at Inventory.Refresh (Inventory.cs) · boss' },
    ])
  })

  it('takes the key from X-Sentry-Auth, the query, Authorization or the envelope header dsn', async () => {
    await capturedProject(t)
    const body = (dsn?: string) => envelope(dsn ? { dsn } : {}, [{ type: 'event' }, event({ event_id: undefined })])
    expect((await post(t, '/api/42/envelope/', body(), { 'x-sentry-auth': `Sentry sentry_key=${CAPTURE_KEY}, sentry_version=7` })).status).toBe(200)
    expect((await post(t, '/api/42/envelope', body(), { authorization: `Sentry sentry_key=${CAPTURE_KEY}` })).status).toBe(200)
    expect((await post(t, '/api/42/envelope/', body(`http://${CAPTURE_KEY}@glitchbox.test/42`))).status).toBe(200)
    expect((await post(t, '/api/42/store/', JSON.stringify(event()), { 'x-sentry-auth': `Sentry sentry_key=${CAPTURE_KEY}` })).status).toBe(200)
    expect((await sqlRows(t, 'SELECT occurrence_count FROM reports'))).toEqual([{ occurrence_count: 4 }])
  })

  it.each([
    ['a wrong key', `/api/42/envelope/?sentry_key=sk_live_wrong`],
    ['a wrong DSN id', `/api/43/envelope/?sentry_key=${CAPTURE_KEY}`],
    ['no key at all', '/api/42/envelope/'],
    ['a DSN id that is no number', `/api/x42/envelope/?sentry_key=${CAPTURE_KEY}`],
  ])('answers 401 {"detail": "invalid API key"} for %s and files nothing', async (_n, path) => {
    await capturedProject(t)
    const res = await post(t, path, envelope({}, [{ type: 'event' }, event()]))
    expect([res.status, res.json]).toEqual([401, { detail: 'invalid API key' }])
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
  })

  it('answers 401 to a project with is_public off', async () => {
    const { project } = await capturedProject(t)
    await setProject(t, project.id, { isPublic: false })
    expect((await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, envelope({}, [{ type: 'event' }, event()]))).status).toBe(401)
  })

  it.each([
    ['a header line that is no JSON', 'not json\n{}', 400],
    ['an item length past the body', `{}\n{"type":"event","length":9999}\n{}`, 400],
    ['an event item over 1 MB', `{}\n{"type":"event"}\n{"message":"${'x'.repeat(1_100_000)}"}`, 413],
    ['10,000 items', `{}\n${'{"type":"client_report"}\n{}\n'.repeat(10_000)}`, 413],
  ])('refuses %s with %s and stores nothing', async (_n, body, status) => {
    await capturedProject(t)
    const res = await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, body)
    expect(res.status).toBe(status)
    expect(res.json).toEqual({ detail: expect.any(String) })
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
  })

  it('refuses a truncated gzip body (400) and a gzip bomb (413) without storing anything', async () => {
    await capturedProject(t)
    const whole = gzipSync(envelope({}, [{ type: 'event' }, event()]))
    const cut = await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, whole.subarray(0, whole.length - 8), { 'content-encoding': 'gzip' })
    expect([cut.status, cut.json]).toEqual([400, { detail: expect.stringContaining('corrupt or truncated') }])
    const bomb = gzipSync(Buffer.alloc(120 * 1024 * 1024))
    expect(bomb.length).toBeLessThan(200 * 1024)
    expect((await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, bomb, { 'content-encoding': 'gzip' })).status).toBe(413)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
  })

  it('keeps no file behind when storing an attachment fails (a full disk): the stored screenshot goes too', async () => {
    await capturedProject(t)
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
    const log = Buffer.from('[12:00:01] loading level 3\n')
    const item = (headers: object, payload: Buffer) => [Buffer.from(`${JSON.stringify({ ...headers, length: payload.length })}\n`), payload, Buffer.from('\n')]
    const body = Buffer.concat([
      Buffer.from(`${JSON.stringify({ event_id: 'd'.repeat(32) })}\n`),
      ...item({ type: 'event' }, Buffer.from(JSON.stringify(event({ event_id: 'd'.repeat(32) })))),
      ...item({ type: 'attachment', filename: 'screenshot.png', content_type: 'image/png' }, png),
      ...item({ type: 'attachment', filename: 'player.log', content_type: 'text/plain' }, log),
    ])
    const store = t.deps.files.store.bind(t.deps.files)
    let stores = 0
    // Failure injection: the first file (the screenshot) is stored, the second write fails as a full disk makes it fail.
    t.deps.files.store = async (db, input) => {
      if (++stores > 1) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 })
      return store(db, input)
    }
    const res = await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, body)
    expect(res.status).toBe(507)
    expect(stores).toBe(2)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
    // Space returns: the same envelope is filed with both files.
    t.deps.files.store = store
    expect((await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, body)).status).toBe(200)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(2)
  })

  it('reads past item types it does not keep, and items without length', async () => {
    await capturedProject(t)
    const body = envelope({ event_id: 'c'.repeat(32) }, [{ type: 'transaction' }, { spans: [] }], [{ type: 'client_report' }, {}], [{ type: 'profile' }, '{}'], [{ type: 'statsd' }, 'a:1|c'], [{ type: 'made_up' }, 'x'], [{ type: 'event' }, event()])
    const res = await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, body)
    expect([res.status, res.json]).toEqual([200, { id: 'c'.repeat(32) }])
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(1)
  })

  it('answers CORS preflights from any origin with the Sentry headers, never with credentials', async () => {
    await capturedProject(t)
    const res = await t.app.handle(new Request('http://localhost/api/42/envelope/', { method: 'OPTIONS', headers: { origin: 'https://game.example', 'access-control-request-method': 'POST' } }))
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, X-Sentry-Auth, Authorization, Content-Encoding')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    const sent = await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, envelope({}, [{ type: 'event' }, event()]), { origin: 'https://game.example' })
    expect(sent.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('answers 429 with Retry-After and X-Sentry-Rate-Limits once the SDK budget is spent', async () => {
    await capturedProject(t)
    let last = { status: 0, headers: new Headers() }
    for (let i = 0; i < 31; i++) last = await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, envelope({}, [{ type: 'client_report' }, {}]), { 'x-forwarded-for': '198.51.100.9' })
    expect(last.status).toBe(429)
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(last.headers.get('x-sentry-rate-limits')).toBe(`${last.headers.get('retry-after')}::organization`)
  })
})
