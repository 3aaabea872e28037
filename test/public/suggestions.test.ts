// Issue 25: the player's "Report a bug" form (tracker page and widget) suggests existing public
// reports as the title is typed, so a player can vote on one instead of filing it again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { putSettings, setReport } from './public-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const similar = (title: string, ip?: string) => t.request('GET', `/api/tracker/${project.slug}/similar?title=${encodeURIComponent(title)}`, { ip })
const widgetSimilar = (title: string, apiKey = project.apiKey) => t.request('GET', `/api/bugs/similar?title=${encodeURIComponent(title)}`, { apiKey })

/** Reports about a door: two public ones, a hidden, a private and an unrelated one. */
async function seed() {
  const door = await createReportIn(t, project, { title: 'Castle door will not open' })
  const gate = await createReportIn(t, project, { title: 'Door of the castle gate is stuck' })
  const hidden = await createReportIn(t, project, { title: 'Castle door glitch (not triaged)' })
  const secret = await createReportIn(t, project, { title: 'Castle door exploit' })
  await createReportIn(t, project, { title: 'Music stops in menus' })
  await setReport(t, door, { published: true, upvotes: 4 })
  await setReport(t, gate, { triagedAt: t.clock.now() })
  await setReport(t, secret, { isPrivate: true, published: true })
  return { door, gate, hidden, secret }
}

describe('GET /api/tracker/{slug}/similar', () => {
  it('suggests public reports only, best match first, with their public URL and whether votes are taken', async () => {
    const { door, gate } = await seed()
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true })
    const res = await similar('castle door stuck')
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const bugs = res.body.data.bugs as { report_number: number; title: string; status: string; upvotes: number; url: string }[]
    expect(bugs.map((b) => b.report_number).sort()).toEqual([door.reportNumber, gate.reportNumber].sort())
    expect(bugs.find((b) => b.report_number === door.reportNumber)).toEqual({
      report_number: door.reportNumber,
      title: 'Castle door will not open',
      status: 'open',
      upvotes: 4,
      url: `http://glitchbox.test/tracker/${project.slug}/${door.reportNumber}`,
    })
    expect(res.body.data.can_vote).toBe(true)
    expect(JSON.stringify(res.body)).not.toMatch(/not triaged|exploit|Music/)
  })

  it('answers no suggestions for short or stop-word titles, 404 while the tracker is off, 400 for a title past 300 characters', async () => {
    await seed()
    expect((await similar('castle door')).status).toBe(404)
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    for (const title of ['', 'do', 'the and of']) expect((await similar(title)).body.data).toEqual({ bugs: [], can_vote: false })
    expect((await similar('x'.repeat(301))).status).toBe(400)
    expect((await t.request('GET', `/api/tracker/${project.slug}/similar`)).status).toBe(400)
  })

  it('counts against the public rate limit', async () => {
    t.close()
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '3' } })
    owner = await createUser(t)
    project = await createProject(t, owner)
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await similar(`castle door ${i}`, '198.51.100.20')).status)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    // Another address is not slowed down.
    expect((await similar('castle door', '198.51.100.21')).status).toBe(200)
  })
})

describe("the widget's suggestions and votes (by SDK key)", () => {
  it('suggests the same public reports, and none while the tracker is off', async () => {
    const { door, gate } = await seed()
    expect((await widgetSimilar('castle door')).body.data).toEqual({ bugs: [], can_vote: false })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true })
    const res = await widgetSimilar('castle door')
    expect(res.status).toBe(200)
    expect(res.body.data.bugs.map((b: { report_number: number }) => b.report_number).sort()).toEqual([door.reportNumber, gate.reportNumber].sort())
    expect((await widgetSimilar('castle door', 'sk_live_wrong')).status).toBe(401)
    const preflight = await t.request('OPTIONS', '/api/bugs/similar', { headers: { origin: 'https://game.example', 'access-control-request-method': 'GET' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toContain('X-API-Key')
  })

  it('votes for a public report instead of filing one: once per player, 404 for a hidden report, 403 when votes are off', async () => {
    const { door, hidden } = await seed()
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    const vote = (body: unknown) => t.request('POST', '/api/bugs/vote', { apiKey: project.apiKey, body, ip: '203.0.113.50' })
    expect((await vote({ report_number: door.reportNumber, player_id: 'steam-1' })).status).toBe(403)
    await putSettings(t, owner, project, 'tracker-settings', { allow_upvotes: true })
    expect((await vote({ report_number: door.reportNumber, player_id: 'steam-1' })).body).toEqual({ ok: true, data: { upvotes: 5, is_new: true } })
    expect((await vote({ report_number: door.reportNumber, player_id: 'steam-1' })).body).toEqual({ ok: true, data: { upvotes: 5, is_new: false } })
    expect((await vote({ report_number: door.reportNumber })).body.data).toEqual({ upvotes: 6, is_new: true })
    expect((await vote({ report_number: hidden.reportNumber })).status).toBe(404)
    for (const bad of [{}, { report_number: 0 }, { report_number: 'one' }, { report_number: 1, player_id: '' }]) expect((await vote(bad)).status).toBe(400)
    expect((await t.request('POST', '/api/bugs/vote', { body: { report_number: door.reportNumber } })).status).toBe(401)
  })
})
