import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { PLANS } from '../../src/modules/auth/plans'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { createReportIn } from '../helpers/fixtures'
import { b64, PNG, pngDataUrl, sdkProject, setProject } from './sdk-helpers'
import { sqlRows, sqlRun } from '../helpers/sql-rows'
import { eq } from 'drizzle-orm'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const bug = (o: Record<string, unknown> = {}) => ({ title: 'Game freezes on the loading screen', description: 'Stuck at 99% forever.', ...o })

describe('POST /api/bugs/submit: API key', () => {
  it.each([
    ['no key', () => ({})],
    ['a malformed key', () => ({ apiKey: 'nope' })],
    ['an unknown key', () => ({ apiKey: `sk_live_${'x'.repeat(40)}` })],
  ])('answers 401 "invalid API key" with %s', async (_name, opts) => {
    await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', { ...opts(), body: bug() })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ ok: false, error: 'invalid API key' })
  })

  it('answers 401 after the key was rotated and when the project is not public', async () => {
    const { project, key } = await sdkProject(t)
    await setProject(t, project.id, { apiKey: `sk_live_${'r'.repeat(40)}` })
    expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })).status).toBe(401)
    const other = await sdkProject(t)
    await setProject(t, other.project.id, { isPublic: false })
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: other.key, body: bug() })
    expect(res.status).toBe(401)
    expect(res.body.error).toBe('invalid API key')
  })

  it('allows 30 submits per minute per client IP (429 with Retry-After after), counted per IP', async () => {
    const { key } = await sdkProject(t)
    for (let i = 0; i < 30; i++) expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, ip: '198.51.100.7', body: bug({ title: `Bug ${i}` }) })).status).toBe(201)
    const limited = await t.request('POST', '/api/bugs/submit', { apiKey: key, ip: '198.51.100.7', body: bug() })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBeTruthy()
    expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, ip: '198.51.100.8', body: bug({ title: 'Other IP' }) })).status).toBe(201)
    t.clock.advance(60_000)
    expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, ip: '198.51.100.7', body: bug({ title: 'Next minute' }) })).status).toBe(201)
  })

  it('is served under /api/v1 too', async () => {
    const { key } = await sdkProject(t)
    expect((await t.request('POST', '/api/v1/bugs/submit', { apiKey: key, body: bug() })).status).toBe(201)
  })
})

describe('POST /api/bugs/submit: validation', () => {
  it.each([
    ['missing title and description', {}, /title and description are required/],
    ['empty title', { title: '   ', description: 'x' }, /title/],
    ['title over 300', { title: 'a'.repeat(301), description: 'x' }, /title/],
    ['description over 50000', { title: 'a', description: 'x'.repeat(50_001) }, /description/],
    ['unknown priority', bug({ priority: 'urgent' }), /priority/],
    ['unknown category', bug({ category: 'bugs' }), /category/],
    ['invalid email', bug({ reporter_email: 'not-an-email' }), /reporter_email/],
    ['auto_captured not boolean', bug({ auto_captured: 'yes' }), /auto_captured/],
    ['metadata over 16 KB', bug({ metadata: { blob: 'x'.repeat(17_000) } }), /metadata/],
    ['more than 10 attachments', bug({ attachments: Array.from({ length: 11 }, (_, i) => ({ filename: `${i}.txt`, data: b64('hi') })) }), /attachments/],
    ['screenshot not base64', bug({ screenshot: 'not base64!!' }), /screenshot/],
    ['screenshot not an image', bug({ screenshot: b64('just some text') }), /screenshot: file type not allowed/],
    ['attachment of a disallowed type', bug({ attachments: [{ filename: 'a.exe', data: b64(new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff])) }] }), /attachments\.0: file type not allowed/],
  ])('answers 400 for %s', async (_name, body, message) => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body })
    expect(res.status).toBe(400)
    expect(res.body.ok).toBe(false)
    expect(res.body.error).toMatch(message)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
  })

  it('answers 400 for malformed JSON and 400 past 20 MB (the spec: an oversized upload), the limit named', async () => {
    const { key } = await sdkProject(t)
    const bad = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: '{"title":', headers: { 'content-type': 'application/json' } })
    expect(bad.status).toBe(400)
    const huge = 'x'.repeat(20 * 1024 * 1024 + 10)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: huge, headers: { 'content-type': 'application/json', 'content-length': String(huge.length) } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: 'request body too large (max 20 MB)' })
  })

  it('refuses a screenshot over 10 MB decoded', async () => {
    const { key } = await sdkProject(t)
    const big = new Uint8Array(10 * 1024 * 1024 + 1)
    big.set(PNG)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ screenshot: b64(big) }) })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/screenshot/)
  })
})

describe('POST /api/bugs/submit: new reports', () => {
  it('creates the report with every field and answers 201 with the documented shape', async () => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', {
      apiKey: key,
      body: {
        title: 'I love this game but the jump is broken',
        description: 'Jumping near ledges does nothing. Great game otherwise, amazing art!',
        priority: 'low',
        category: 'gameplay',
        platform: 'Linux',
        game_version: '2.0.1',
        os_info: 'Ubuntu 24.04',
        device_info: 'Steam Deck',
        steps_to_reproduce: 'Walk to a ledge, press jump',
        expected_behavior: 'Jump',
        actual_behavior: 'Nothing',
        reporter_name: 'Jumper',
        reporter_email: 'jumper@example.com',
        player_id: 12345,
        metadata: { scene: 'Cliffs', fps: [60, 58] },
      },
    })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      id: expect.any(String),
      report_number: 1,
      message: 'Bug report submitted',
      category: 'gameplay',
      priority: 'low',
      sentiment_score: expect.any(Number),
      sentiment_level: 'positive',
      possible_duplicates: [],
    })
    const [r] = await sqlRows(t, 'SELECT * FROM reports WHERE id = ?', res.body.data.id)
    expect(r).toMatchObject({
      platform: 'Linux', game_version: '2.0.1', os_info: 'Ubuntu 24.04', device_info: 'Steam Deck', steps_to_reproduce: 'Walk to a ledge, press jump',
      expected_behavior: 'Jump', actual_behavior: 'Nothing', reporter_name: 'Jumper', reporter_email: 'jumper@example.com', player_id: '12345',
      source: 'user', status: 'open', occurrence_count: 1, metadata: '{"scene":"Cliffs","fps":[60,58]}', sentiment_level: 'positive',
    })
    expect(r!.sentiment_score).toBe(res.body.data.sentiment_score)
  })

  it('defaults priority to medium and category to other; numbers reports in sequence', async () => {
    const { key } = await sdkProject(t)
    const a = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ title: 'First' }) })
    const b = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ title: 'Second' }) })
    expect(a.body.data).toMatchObject({ report_number: 1, priority: 'medium', category: 'other' })
    expect(b.body.data.report_number).toBe(2)
  })

  it.each([
    ['auto_captured true', { title: 'Something odd', auto_captured: true }, 'system'],
    ['an [Error] title', { title: '[Error] IndexOutOfRangeException: Index was outside the bounds' }, 'system'],
    ['a lower-case [freeze] title', { title: '[freeze] Main thread blocked for 5s' }, 'system'],
    ['a player title', { title: 'Error message when saving' }, 'user'],
  ])('marks source from %s', async (_n, body, source) => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug(body) })
    expect(res.status).toBe(201)
    expect((await sqlRows(t, 'SELECT source FROM reports WHERE id = ?', res.body.data.id))[0]!.source).toBe(source)
  })

  it('stores the screenshot (bare base64 or data URL) as an image file and attachments as attachment rows', async () => {
    const { key, owner } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', {
      apiKey: key,
      body: bug({ screenshot: b64(PNG), attachments: [{ filename: 'player.log', mime_type: 'text/plain', data: b64('line 1\nline 2\n') }, { filename: 'save.json', mime_type: 'application/json', data: b64('{"slot":1}') }] }),
    })
    expect(res.status).toBe(201)
    const [r] = await sqlRows(t, 'SELECT screenshot_key FROM reports WHERE id = ?', res.body.data.id)
    expect(r!.screenshot_key).toMatch(/\.png$/)
    expect(await sqlRows(t, 'SELECT file_name, mime_type, file_size FROM attachments WHERE report_id = ? ORDER BY file_name', res.body.data.id)).toEqual([
      { file_name: 'player.log', mime_type: 'text/plain', file_size: 14 },
      { file_name: 'save.json', mime_type: 'application/json', file_size: 10 },
    ])
    const used = (await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id)).limit(1)))[0]!.uploadBytesUsed
    expect(used).toBe(PNG.length + 14 + 10)
  })

  it('answers 403 and keeps no files when the upload quota is reached', async () => {
    const { key, owner } = await sdkProject(t)
    await t.deps.db.write((q) => q.update(accounts).set({ uploadBytesUsed: PLANS.free.limits.uploadBytes - 5 }).where(eq(accounts.id, owner.account.id)))
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ screenshot: pngDataUrl() }) })
    expect(res.status).toBe(403)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
  })

  it('answers 403 when the plan report quota is reached', async () => {
    const { key, owner } = await sdkProject(t)
    await t.deps.db.write((q) => q.update(accounts).set({ reportsCreated: PLANS.free.limits.reports }).where(eq(accounts.id, owner.account.id)))
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })
    expect(res.status).toBe(403)
    expect(res.body.error).toMatch(/limit/)
  })

  it('records the bug_created event path (activity entry) for new reports', async () => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })
    expect(await sqlRows(t, "SELECT action, actor_id FROM activity WHERE report_id = ?", res.body.data.id)).toEqual([{ action: 'created', actor_id: null }])
  })

  it('lists open reports with similar titles as possible duplicates, best first, never closed or other projects', async () => {
    const { key, project } = await sdkProject(t)
    const other = await sdkProject(t)
    await createReportIn(t, project, { title: 'Crash when opening inventory' }) // 1
    await createReportIn(t, project, { title: 'Inventory crash after opening the map screen' }) // 2
    const closed = await createReportIn(t, project, { title: 'Crash opening inventory screen' }) // 3
    await sqlRun(t, "UPDATE reports SET status = 'resolved' WHERE id = ?", closed.id)
    await createReportIn(t, project, { title: 'Audio stutters in menus' }) // 4
    await createReportIn(t, other.project, { title: 'Crash opening inventory screen' })
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ title: 'Crash opening the inventory screen' }) })
    expect(res.status).toBe(201)
    expect(res.body.data.possible_duplicates).toEqual([2, 1])
  })

  it('never lets title text form FTS syntax', async () => {
    const { key, project } = await sdkProject(t)
    await createReportIn(t, project, { title: 'quote " and NEAR( star* title: column' })
    for (const title of ['"unbalanced quote', 'NEAR(crash inventory)', 'title: hack OR AND NOT', '*** ^^^ ---', 'crash* "near"']) {
      const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ title }) })
      expect(res.status).toBe(201)
    }
  })
})

describe('POST /api/bugs/submit: grouping by title', () => {
  it('stacks a submission with the same title (case and whitespace aside) onto the live report: 200, deduplicated', async () => {
    const { key } = await sdkProject(t)
    const first = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ category: 'crash', priority: 'high' }) })
    t.clock.advance(60_000)
    const again = await t.request('POST', '/api/bugs/submit', {
      apiKey: key,
      body: bug({ title: '  game FREEZES on the   loading screen ', category: 'ui', device_info: 'GTX 970', os_info: 'Windows 10', platform: 'Windows', game_version: '1.1', steam_id: '7656', reporter_name: 'P2', metadata: { map: 'forest' }, screenshot: pngDataUrl() }),
    })
    expect(again.status).toBe(200)
    expect(again.body.data).toEqual({
      id: first.body.data.id,
      report_number: first.body.data.report_number,
      message: expect.any(String),
      deduplicated: true,
      category: 'crash',
      priority: 'high',
      sentiment_score: first.body.data.sentiment_score,
      sentiment_level: first.body.data.sentiment_level,
      possible_duplicates: [],
    })
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(1)
    const [r] = await sqlRows(t, 'SELECT occurrence_count, updated_at, created_at, last_seen FROM reports')
    expect(r!.occurrence_count).toBe(2)
    // The latest occurrence moves last_seen; updated_at is the team's last change.
    expect(r!.last_seen - r!.created_at).toBe(60_000)
    expect(r!.updated_at).toBe(r!.created_at)
    const [o] = await sqlRows(t, 'SELECT * FROM report_occurrences ORDER BY seq DESC LIMIT 1')
    expect(o).toMatchObject({ report_id: first.body.data.id, title: 'game FREEZES on the   loading screen', device_info: 'GTX 970', os_info: 'Windows 10', platform: 'Windows', game_version: '1.1', player_id: '7656', reporter_name: 'P2', metadata: '{"map":"forest"}' })
    expect(o!.screenshot_key).toMatch(/\.png$/)
  })

  it('does not charge the report quota for a stacked submission', async () => {
    const { key, owner } = await sdkProject(t)
    await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })
    await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id)).limit(1)))[0]!.reportsCreated).toBe(1)
  })

  it('creates a new report when grouping is off, or the matching report is deleted', async () => {
    const { key, project } = await sdkProject(t)
    const a = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })
    await sqlRun(t, 'UPDATE reports SET deleted_at = 1 WHERE id = ?', a.body.data.id)
    const b = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })
    expect(b.status).toBe(201)
    await setProject(t, project.id, { bugGrouping: false })
    const c = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })
    expect(c.status).toBe(201)
    expect(c.body.data.report_number).toBe(3)
    expect(c.body.data.possible_duplicates).toEqual([2])
  })

  it('stacks onto resolved reports too (any live status) and never across projects', async () => {
    const { key } = await sdkProject(t)
    const other = await sdkProject(t)
    const a = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })
    await sqlRun(t, "UPDATE reports SET status = 'resolved' WHERE id = ?", a.body.data.id)
    expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })).status).toBe(200)
    expect((await t.request('POST', '/api/bugs/submit', { apiKey: other.key, body: bug() })).status).toBe(201)
  })

  it('keeps the attachments of every submission with its own occurrence', async () => {
    const { key } = await sdkProject(t)
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ filename: `log${i}.txt`, data: b64(`log ${i}`) }))
    const first = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ attachments: files(8) }) })
    const again = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ attachments: files(4) }) })
    expect(again.status).toBe(200)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(12)
    expect((await sqlRows(t, 'SELECT o.seq, count(a.id) AS files FROM report_occurrences o LEFT JOIN attachments a ON a.occurrence_id = o.id WHERE o.report_id = ? GROUP BY o.seq ORDER BY o.seq', first.body.data.id)).map((r) => r.files)).toEqual([8, 4])
  })

  it('groups concurrent identical submissions onto one report', async () => {
    const { key } = await sdkProject(t)
    const results = await Promise.all(Array.from({ length: 10 }, () => t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug() })))
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
    expect(await sqlRows(t, 'SELECT count(*) AS n, max(occurrence_count) AS c FROM reports')).toEqual([{ n: 1, c: 10 }])
  })
})
