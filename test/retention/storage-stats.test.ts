import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { runRetention } from '../../src/modules/retention/retention.service'
import { recountStorage } from '../../src/modules/auth/accounts.service'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { removeTempDataDirs, runCli, startServer } from '../helpers/server-process'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { PNG, pngDataUrl, WEBM } from '../sdk/sdk-helpers'

afterAll(removeTempDataDirs)

describe('GET /api/account usage.storage_bytes', () => {
  let t: TestApp
  afterEach(() => t.close())

  it("is the bytes of the account's screenshots, attachments and replays, and nobody else's", async () => {
    t = createTestApp()
    const owner = await createUser(t, { plan: 'self_hosted' })
    const other = await createUser(t, { plan: 'self_hosted' })
    const project = await createProject(t, owner)
    const usage = async () => (await t.request('GET', '/api/account', { token: owner.token })).body.data.usage
    expect((await usage()).storage_bytes).toBe(0)

    const submit = await t.request('POST', '/api/bugs/submit', { apiKey: project.apiKey, body: { title: 'Crash', description: 'boom', screenshot: pngDataUrl() } })
    expect(submit.status).toBe(201)
    const form = new FormData()
    form.append('file', new File(['twelve bytes'], 'log.txt', { type: 'text/plain' }))
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${submit.body.data.report_number}/attachments`, { token: owner.token, body: form })).status).toBe(201)
    const replay = new FormData()
    replay.set('bug_report_id', (await createReportIn(t, project)).id)
    replay.set('file', new File([WEBM], 'replay.webm', { type: 'video/webm' }))
    expect((await t.request('POST', '/api/session-replays', { apiKey: project.apiKey, body: replay })).status).toBe(201)
    // Another account's file does not count.
    await t.request('POST', '/api/bugs/submit', { apiKey: (await createProject(t, other)).apiKey, body: { title: 'Theirs', description: 'x', screenshot: pngDataUrl() } })

    const background = new FormData()
    background.append('file', new File([PNG], 'bg.png', { type: 'image/png' }))
    expect((await t.request('POST', `/api/projects/${project.slug}/widget-settings/background`, { token: owner.token, body: background })).status).toBe(201)

    const expected = 2 * PNG.length + 'twelve bytes'.length + WEBM.length
    expect((await usage()).storage_bytes).toBe(expected)
    const sub = (await t.request('GET', '/api/billing/subscription', { token: owner.token })).body.data
    expect(sub.usage.storage_bytes).toBe(expected)
    // The kept counter and a full count agree (a server upgraded from a version without it counts once).
    await recountStorage(t.deps.db, owner.account.id)
    expect((await usage()).storage_bytes).toBe(expected)
  })

  it('goes down when retention removes replays, and is counted again when a project is deleted', async () => {
    t = createTestApp()
    const owner = await createUser(t, { plan: 'self_hosted' })
    const [kept, doomed] = [await createProject(t, owner), await createProject(t, owner)]
    const usage = async () => (await t.request('GET', '/api/account', { token: owner.token })).body.data.usage.storage_bytes
    expect(await usage()).toBe(0)
    for (const project of [kept, doomed]) {
      const replay = new FormData()
      replay.set('bug_report_id', (await createReportIn(t, project)).id)
      replay.set('file', new File([WEBM], 'replay.webm', { type: 'video/webm' }))
      expect((await t.request('POST', '/api/session-replays', { apiKey: project.apiKey, body: replay })).status).toBe(201)
    }
    expect(await usage()).toBe(2 * WEBM.length)
    expect((await t.request('DELETE', `/api/projects/${doomed.slug}`, { token: owner.token })).status).toBe(200)
    expect(await usage()).toBe(WEBM.length)

    t.clock.advance(31 * DAY)
    const token = await createSession(t.deps.db, owner.user.id, t.clock.now())
    expect((await runRetention(t.deps, { pause: async () => {} })).deleted.session_replays).toBe(1)
    expect((await t.request('GET', '/api/account', { token })).body.data.usage.storage_bytes).toBe(0)
  })
})

describe('glitchbox admin stats', () => {
  afterAll(removeTempDataDirs)

  it('reports database and files size, free disk, rows per table and the oldest event while the server runs', async () => {
    const s = await startServer()
    const env = { GLITCHBOX_DATA_DIR: s.dataDir }
    try {
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
      const signup = await (await post('/api/auth/signup', { email: 'ops@studio.example', password: 'long enough password' })).json()
      const token = signup.data.token
      const project = await (await post('/api/projects', { name: 'Game' }, { authorization: `Bearer ${token}` })).json()
      const key = { 'x-api-key': project.data.api_key }
      expect((await post('/api/bugs/submit', { title: 'Crash', description: 'boom', screenshot: pngDataUrl() }, key)).status).toBe(201)
      expect((await post('/api/events/track', { event_name: 'level_start' }, key)).status).toBe(201)

      const r = await runCli(['admin', 'stats', '--json'], env)
      expect(r.code).toBe(0)
      const stats = JSON.parse(r.stdout)
      expect(stats.database.bytes + stats.database.wal_bytes).toBeGreaterThan(0)
      expect(stats.files).toEqual({ bytes: PNG.length, count: 1 })
      expect(stats.disk.free_bytes).toBeGreaterThan(0)
      expect(stats.rows).toMatchObject({ reports: 1, events: 1, projects: 1, accounts: 1 })
      expect(Date.parse(stats.oldest_retained.event)).toBeGreaterThan(Date.now() - 60_000)
      expect(stats.retention).toEqual({ days: 90, replay_days: 30 })

      const text = await runCli(['admin', 'stats'], env)
      expect(text.code).toBe(0)
      expect(text.stdout).toMatch(/^database\s+\S+/m)
      expect(text.stdout).toMatch(/^free disk\s+\S+ \S+ of/m)
      expect(text.stdout).toMatch(/^ {2}reports\s+1$/m)
      // The server kept serving throughout.
      expect((await fetch(`${s.url}/health`)).status).toBe(200)
    } finally {
      await s.stop()
    }
  })
})
