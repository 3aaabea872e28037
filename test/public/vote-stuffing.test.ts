// Issue 21 item 10: one address sending votes with invented player ids counted each of them (60 votes
// from one address counted until the rate limit stopped them). An address adds at most 3 votes carrying
// distinct player ids to one report per day; further ones answer 200 with is_new false and count nothing.
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { reports } from '../../src/modules/reports/reports.table'
import type { Report } from '../../src/modules/reports/reports.service'
import { createProject, createReportIn, createUser, type TestProject } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { putSettings, setReport } from './public-fixtures'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
let project: TestProject
let report: Report
beforeEach(async () => {
  // Rate limits off: the cap on votes must hold on its own, not through the 30-a-minute budget.
  t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0', GLITCHBOX_RATE_LIMIT_GLOBAL: '0' } })
  const owner = await createUser(t)
  project = await createProject(t, owner)
  report = await createReportIn(t, project)
  await setReport(t, report, { onRoadmap: true })
  await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true, publish: 'all' })
  await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, show_upvotes: true })
})
afterEach(() => t.close())

const vote = (ip: string, playerId?: string, o: { page?: 'tracker' | 'roadmap'; number?: number } = {}) =>
  t.request('POST', `/api/${o.page ?? 'tracker'}/${project.slug}/bugs/${o.number ?? report.reportNumber}/vote`, { ip, body: playerId === undefined ? undefined : { player_id: playerId } })
const storedUpvotes = async (r: Report = report) => (await t.deps.db.read((q) => q.select({ n: reports.upvotes }).from(reports).where(eq(reports.id, r.id)).limit(1)))[0]!.n

describe('votes with invented player ids from one address', () => {
  it('count 3 of 60; the others answer 200 with is_new false and the unchanged count', async () => {
    const answers = []
    for (let i = 0; i < 60; i++) answers.push(await vote('203.0.113.7', `invented-${i}`))
    expect(answers.every((a) => a.status === 200 && a.body.ok)).toBe(true)
    expect(answers.map((a) => a.body.data.is_new)).toEqual([true, true, true, ...Array(57).fill(false)])
    expect(answers.slice(3).every((a) => a.body.data.upvotes === 3)).toBe(true)
    expect(await storedUpvotes()).toBe(3)
  })

  it('count 3 of 60 sent at once: the cap check and the vote share one serialised write', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => vote('203.0.113.7', `burst-${i}`)))
    expect(answers.every((a) => a.status === 200 && a.body.ok)).toBe(true)
    expect(answers.filter((a) => a.body.data.is_new)).toHaveLength(3)
    expect(await storedUpvotes()).toBe(3)
  })

  it('share the cap between the tracker and the roadmap', async () => {
    expect((await vote('203.0.113.7', 'a', { page: 'roadmap' })).body.data).toEqual({ upvotes: 1, is_new: true })
    expect((await vote('203.0.113.7', 'b')).body.data).toEqual({ upvotes: 2, is_new: true })
    expect((await vote('203.0.113.7', 'c', { page: 'roadmap' })).body.data).toEqual({ upvotes: 3, is_new: true })
    expect((await vote('203.0.113.7', 'd')).body.data).toEqual({ upvotes: 3, is_new: false })
    expect((await vote('203.0.113.7', 'e', { page: 'roadmap' })).body.data).toEqual({ upvotes: 3, is_new: false })
  })

  it('leave other addresses, other reports and the address vote itself alone', async () => {
    for (const id of ['a', 'b', 'c', 'd']) await vote('203.0.113.7', id)
    expect(await storedUpvotes()).toBe(3)
    // The address's own vote (no player id) is one voter of its own, not one of the three.
    expect((await vote('203.0.113.7')).body.data).toEqual({ upvotes: 4, is_new: true })
    expect((await vote('198.51.100.2', 'e')).body.data).toEqual({ upvotes: 5, is_new: true })
    // A player refused from the crowded address counts when it votes from its own.
    expect((await vote('198.51.100.3', 'd')).body.data).toEqual({ upvotes: 6, is_new: true })
    const other = await createReportIn(t, project)
    for (const id of ['a', 'b', 'c']) expect((await vote('203.0.113.7', id, { number: other.reportNumber })).body.data.is_new).toBe(true)
    expect(await storedUpvotes(other)).toBe(3)
  })

  it('keep repeats of a counted player idempotent and open again after a day', async () => {
    for (const id of ['a', 'b', 'c']) await vote('203.0.113.7', id)
    expect((await vote('203.0.113.7', 'a')).body.data).toEqual({ upvotes: 3, is_new: false })
    expect((await vote('203.0.113.7', 'd')).body.data).toEqual({ upvotes: 3, is_new: false })
    t.clock.advance(DAY - 1000)
    expect((await vote('203.0.113.7', 'd')).body.data).toEqual({ upvotes: 3, is_new: false })
    t.clock.advance(1000)
    expect((await vote('203.0.113.7', 'd')).body.data).toEqual({ upvotes: 4, is_new: true })
    expect((await vote('203.0.113.7', 'a')).body.data).toEqual({ upvotes: 4, is_new: false })
  })

  it('count an IPv6 client by its /64', async () => {
    for (const [i, ip] of ['2001:db8:1:2::10', '2001:db8:1:2::11', '2001:db8:1:2:ffff::1'].entries()) expect((await vote(ip, `p${i}`)).body.data.is_new).toBe(true)
    expect((await vote('2001:db8:1:2:aaaa::9', 'p3')).body.data).toEqual({ upvotes: 3, is_new: false })
    expect((await vote('2001:db8:1:3::10', 'p3')).body.data).toEqual({ upvotes: 4, is_new: true })
  })

  it('stores the address of a player vote only as a keyed hash', async () => {
    await vote('203.0.113.77', 'steam-76561198000000042')
    const dump = JSON.stringify((await sqlRows(t, 'select * from report_votes')))
    expect(dump).not.toContain('203.0.113.77')
    expect(dump).not.toContain('76561198000000042')
  })
})
