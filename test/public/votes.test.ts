import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reportVotes } from '../../src/modules/public/public.table'
import { reports } from '../../src/modules/reports/reports.table'
import type { Report } from '../../src/modules/reports/reports.service'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { putSettings, setReport } from './public-fixtures'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
let owner: TestUser
let project: TestProject
let report: Report
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  report = await createReportIn(t, project)
  // On the roadmap, so the roadmap's votes reach it.
  await setReport(t, report, { onRoadmap: true })
})
afterEach(() => t.close())

const trackerVote = (o: { body?: unknown; ip?: string; number?: number } = {}) =>
  t.request('POST', `/api/tracker/${project.slug}/bugs/${o.number ?? report.reportNumber}/vote`, { body: o.body, ip: o.ip })
const roadmapVote = (o: { body?: unknown; ip?: string; number?: number } = {}) =>
  t.request('POST', `/api/roadmap/${project.slug}/bugs/${o.number ?? report.reportNumber}/vote`, { body: o.body, ip: o.ip })
const storedUpvotes = async () => (await t.deps.db.read((q) => q.select({ n: reports.upvotes }).from(reports).where(eq(reports.id, report.id)).limit(1)))[0]!.n

describe('POST /api/tracker/{slug}/bugs/{number}/vote', () => {
  it('is 404 while the tracker is off and 403 while it does not allow upvotes', async () => {
    expect((await trackerVote({ body: { player_id: 'p1' } })).status).toBe(404)
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all' })
    const res = await trackerVote({ body: { player_id: 'p1' } })
    expect(res.status).toBe(403)
    expect(res.body.ok).toBe(false)
    expect(await storedUpvotes()).toBe(0)
  })

  describe('with upvotes allowed', () => {
    beforeEach(() => putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true, publish: 'all' }))

    it('counts one vote per player id; a repeat returns the count with is_new false', async () => {
      expect(await trackerVote({ body: { player_id: 'steam-1' } })).toMatchObject({ status: 200, body: { ok: true, data: { upvotes: 1, is_new: true } } })
      expect(await trackerVote({ body: { player_id: 'steam-1' } })).toMatchObject({ status: 200, body: { ok: true, data: { upvotes: 1, is_new: false } } })
      expect((await trackerVote({ body: { player_id: 'steam-2' } })).body.data).toEqual({ upvotes: 2, is_new: true })
      expect((await trackerVote({ body: { player_id: 'steam-1' } })).body.data).toEqual({ upvotes: 2, is_new: false })
      expect(await storedUpvotes()).toBe(2)
      const listed = await t.request('GET', `/api/tracker/${project.slug}`)
      expect(listed.body.data.bugs[0].upvotes).toBe(2)
    })

    it('counts one vote per client address when no player id is sent', async () => {
      expect((await trackerVote({ ip: '198.51.100.1' })).body.data).toEqual({ upvotes: 1, is_new: true })
      expect((await trackerVote({ ip: '198.51.100.1', body: {} })).body.data).toEqual({ upvotes: 1, is_new: false })
      expect((await trackerVote({ ip: '198.51.100.2' })).body.data).toEqual({ upvotes: 2, is_new: true })
      // A player id is its own voter, even from an address that already voted.
      expect((await trackerVote({ ip: '198.51.100.1', body: { player_id: 'steam-9' } })).body.data).toEqual({ upvotes: 3, is_new: true })
    })

    it('stores neither the address nor the player id, only keyed hashes', async () => {
      await trackerVote({ ip: '198.51.100.33' })
      await trackerVote({ body: { player_id: 'steam-76561198000000042' } })
      const rows = (await t.deps.db.read((q) => q.select().from(reportVotes)))
      expect(rows).toHaveLength(2)
      const dump = JSON.stringify((await sqlRows(t, 'select * from report_votes')))
      expect(dump).not.toContain('198.51.100.33')
      expect(dump).not.toContain('76561198000000042')
      for (const r of rows) expect(r.voterKey).toMatch(/^[0-9a-f]{64}$/)
      expect(rows[0]!.voterKey).not.toBe(rows[1]!.voterKey)
    })

    it('keeps votes idempotent across reports: each report counts the same voter once', async () => {
      const other = await createReportIn(t, project)
      expect((await trackerVote({ body: { player_id: 'p' } })).body.data.is_new).toBe(true)
      expect((await trackerVote({ body: { player_id: 'p' }, number: other.reportNumber })).body.data).toEqual({ upvotes: 1, is_new: true })
    })

    it('is 404 for private, deleted and unknown reports and counts nothing', async () => {
      const hidden = await createReportIn(t, project)
      const gone = await createReportIn(t, project)
      await setReport(t, hidden, { isPrivate: true })
      await setReport(t, gone, { deletedAt: t.clock.now() })
      for (const number of [hidden.reportNumber, gone.reportNumber, 404]) {
        const res = await trackerVote({ number, body: { player_id: 'p' } })
        expect(res.status, String(number)).toBe(404)
      }
      expect((await t.deps.db.read((q) => q.select().from(reportVotes)))).toHaveLength(0)
    })

    it.each([[{ player_id: '' }], [{ player_id: 'x'.repeat(129) }], [{ player_id: 42 }]])('answers 400 to %j', async (body) => {
      const res = await trackerVote({ body })
      expect(res.status).toBe(400)
      expect(res.body.error).toContain('player_id')
      expect(await storedUpvotes()).toBe(0)
    })

    it('accepts a 128-character player id', async () => {
      expect((await trackerVote({ body: { player_id: 'x'.repeat(128) } })).body.data).toEqual({ upvotes: 1, is_new: true })
    })
  })
})

describe('POST /api/roadmap/{slug}/bugs/{number}/vote', () => {
  it('is 404 while the roadmap is off and 403 unless it shows upvotes', async () => {
    expect((await roadmapVote({ body: { player_id: 'p' } })).status).toBe(404)
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    const res = await roadmapVote({ body: { player_id: 'p' } })
    expect(res.status).toBe(403)
    expect(res.body.ok).toBe(false)
    expect(await storedUpvotes()).toBe(0)
  })

  it('counts one vote per voter, shared with the tracker, on reports the roadmap shows', async () => {
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, show_upvotes: true })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true, publish: 'all' })
    expect((await roadmapVote({ ip: '192.0.2.5' })).body.data).toEqual({ upvotes: 1, is_new: true })
    expect((await roadmapVote({ ip: '192.0.2.5' })).body.data).toEqual({ upvotes: 1, is_new: false })
    expect((await trackerVote({ ip: '192.0.2.5' })).body.data).toEqual({ upvotes: 1, is_new: false })
    expect((await roadmapVote({ body: { player_id: 'steam-1' } })).body.data).toEqual({ upvotes: 2, is_new: true })
    const roadmap = await t.request('GET', `/api/roadmap/${project.slug}`)
    expect(roadmap.body.data.columns[0].bugs[0].upvotes).toBe(2)
  })

  it('is 404 for reports outside the shown statuses, private, unpublished or not on the roadmap', async () => {
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, show_upvotes: true, statuses: ['in_progress'] })
    expect((await roadmapVote({ body: { player_id: 'p' } })).status).toBe(404)
    await setReport(t, report, { status: 'in_progress', isPrivate: true })
    expect((await roadmapVote({ body: { player_id: 'p' } })).status).toBe(404)
    await setReport(t, report, { isPrivate: false, published: false })
    expect((await roadmapVote({ body: { player_id: 'p' } })).status).toBe(404)
    await setReport(t, report, { published: null, onRoadmap: false })
    expect((await roadmapVote({ body: { player_id: 'p' } })).status).toBe(404)
    await setReport(t, report, { onRoadmap: true })
    expect((await roadmapVote({ body: { player_id: 'p' } })).status).toBe(200)
  })
})
