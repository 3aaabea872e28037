import { afterEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { reports } from '../../src/modules/reports/reports.table'
import { createReportIn } from '../helpers/fixtures'
import { addSessions, rollUp, setup } from './analytics-helpers'

let close: (() => void) | undefined
afterEach(() => close?.())

describe('release health', () => {
  it('lists each version newest first with sessions, crash-free rate, reports, players and 7-day adoption', async () => {
    const { t, project, get } = await setup()
    close = t.close
    await addSessions(t, project, { n: 6, crashed: 1, version: '2.0.0', player: 'ann', daysAgo: 1 })
    await addSessions(t, project, { n: 2, version: '2.0.0', player: 'bob' })
    await addSessions(t, project, { n: 2, version: '1.0.0', player: 'ann', daysAgo: 3 })
    await addSessions(t, project, { n: 10, version: '1.0.0', player: 'cat', daysAgo: 20 })
    await createReportIn(t, project, { title: 'A', description: 'x', gameVersion: '2.0.0', playerId: 'dan' })
    await rollUp(t)
    const d = (await get('/release-health')).body.data
    // last 7 days: 2.0.0 has 8 sessions, 1.0.0 has 2 → shares 0.8 and 0.2
    expect(d.sessions_last_7_days).toBe(10)
    expect(d.versions.map((v: any) => v.version)).toEqual(['2.0.0', '1.0.0'])
    expect(d.versions[0]).toMatchObject({ sessions: 8, ended_sessions: 8, crashed_sessions: 1, crash_free_rate: 0.875, reports: 1, players: 3, sessions_last_7_days: 8, adoption_share: 0.8 })
    expect(d.versions[1]).toMatchObject({ sessions: 12, crash_free_rate: 1, reports: 0, players: 2, adoption_share: 0.2 })
  })

  it('gives one version its daily series and top crash groups, and 400 for an unknown or missing version', async () => {
    const { t, project, get } = await setup()
    close = t.close
    await addSessions(t, project, { n: 4, crashed: 1, version: '2.0.0', daysAgo: 1 })
    await addSessions(t, project, { n: 5, version: '2.0.0' })
    await createReportIn(t, project, { title: '[Error] IndexOutOfRangeException: x', description: 'at A.B ()', gameVersion: '2.0.0' })
    await rollUp(t)
    const res = await get('/release-health/version?version=2.0.0&days=3')
    expect(res.status).toBe(200)
    expect(res.body.data.daily).toEqual([
      { day: '2026-01-03', sessions: 0, ended: 0, crashed: 0, crash_free_rate: null, reports: 0, crash_reports: 0, events: 0, crash_events: 0 },
      { day: '2026-01-04', sessions: 4, ended: 4, crashed: 1, crash_free_rate: 0.75, reports: 0, crash_reports: 0, events: 0, crash_events: 0 },
      { day: '2026-01-05', sessions: 5, ended: 5, crashed: 0, crash_free_rate: 1, reports: 1, crash_reports: 1, events: 1, crash_events: 1 },
    ])
    expect(res.body.data.crash_free_rate).toBe(Math.round((8 / 9) * 1e4) / 1e4)
    expect(res.body.data.top_crash_groups).toMatchObject([{ error_type: 'IndexOutOfRangeException', grouped_by: '[Error] IndexOutOfRangeException: x', count_in_version: 1 }])
    for (const q of ['?version=9.9.9', '', '?version=2.0.0&days=0']) {
      const bad = await get(`/release-health/version${q}`)
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(q.includes('days') ? /days/ : /version/)
    }
  })
})

describe('regressions', () => {
  it('suggests a resolved report and a newer similar one from a later version, and never a dismissed pair again', async () => {
    const { t, project, get, owner } = await setup()
    close = t.close
    const old = await createReportIn(t, project, { title: '[Error] NullReferenceException in inventory screen', description: 'x', gameVersion: '1.2.0' })
    await t.deps.db.write((q) => q.update(reports).set({ status: 'resolved', updatedAt: t.clock.now() }).where(eq(reports.id, old.id)))
    t.clock.advance(3600_000)
    const again = await createReportIn(t, project, { title: '[Error] NullReferenceException in inventory screen again', description: 'x', gameVersion: '1.3.0' })
    await createReportIn(t, project, { title: '[Error] NullReferenceException in audio mixer', description: 'x', gameVersion: '1.3.0' }) // not similar
    await createReportIn(t, project, { title: '[Error] NullReferenceException in inventory screen', description: 'x', gameVersion: '1.1.0' }) // older version
    const det = await get('/regressions/detect')
    expect(det.status).toBe(200)
    expect(det.body.data).toHaveLength(1)
    // words {nullreferenceexception, inventory, screen} vs {…, again}: 3 of 4 → 0.75
    expect(det.body.data[0]).toMatchObject({ original: { id: old.id }, new: { id: again.id }, error_type: 'NullReferenceException', title_similarity: 0.75, resolved_version: '1.2.0', regressed_version: '1.3.0' })

    const post = (body: unknown) => t.request('POST', `/api/projects/${project.slug}/regressions`, { token: owner.token, body })
    const created = await post({ original_bug_id: old.id, new_bug_id: again.id, status: 'dismissed' })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ status: 'dismissed', resolved_version: '1.2.0', regressed_version: '1.3.0', original_report_number: old.reportNumber })
    expect((await get('/regressions/detect')).body.data).toEqual([])
    const changed = await post({ original_bug_id: old.id, new_bug_id: again.id, status: 'confirmed', resolved_version: '1.2.1', regressed_version: '1.3.0' })
    expect(changed.status).toBe(200)
    expect((await get('/regressions')).body.data).toMatchObject([{ status: 'confirmed', resolved_version: '1.2.1' }])
    expect((await get('/regressions?status=dismissed')).body.data).toEqual([])
    expect((await post({ original_bug_id: old.id, new_bug_id: 'nope', status: 'confirmed' })).status).toBe(404)
    const bad = await post({ original_bug_id: old.id, new_bug_id: again.id, status: 'maybe' })
    expect([bad.status, bad.body.error]).toEqual([400, expect.stringContaining('status')])
    expect((await get('/regressions?status=open')).status).toBe(400)
  })
})

describe('triage (tier 2)', () => {
  it('suggests priority, category, duplicates and assignee with reasons, the same each time', async () => {
    const { t, project, get, owner } = await setup('pro')
    close = t.close
    const mk = async (title: string, o: Record<string, unknown> = {}) => await createReportIn(t, project, { title, description: 'x', ...o } as never)
    for (let i = 0; i < 3; i++) {
      const r = await mk(`Player falls through floor in cave level ${i}`, { priority: i < 2 ? 'high' : 'low', category: 'gameplay' })
      await t.deps.db.write((q) => q.update(reports).set({ status: 'resolved', assignedTo: owner.user.id }).where(eq(reports.id, r.id)))
    }
    await mk('Music too loud', { priority: 'low', category: 'audio' })
    const target = await mk('Player falls through floor in cave level', { priority: 'medium', category: 'other' })
    const res = await get(`/bugs/${target.reportNumber}/triage`)
    expect(res.status).toBe(200)
    const d = res.body.data
    expect(d.priority).toEqual({ value: 'high', reason: '2 of the 3 most similar reports have priority high' })
    expect(d.category).toEqual({ value: 'gameplay', reason: '3 of the 3 most similar reports are in gameplay' })
    expect(d.assignee).toMatchObject({ user_id: owner.user.id, reason: `3 of the 3 most similar resolved reports were assigned to ${d.assignee.name}` })
    // {player, falls, through, floor, cave, level} all shared: score 1 → duplicates
    expect(d.duplicates.map((x: any) => x.score)).toEqual([1, 1, 1])
    expect((await get(`/bugs/${target.reportNumber}/triage`)).body.data).toEqual(d)
    expect((await get('/bugs/999/triage')).status).toBe(404)
  })

  it('is 403 on free', async () => {
    const { t, project, get } = await setup('free')
    close = t.close
    const r = await createReportIn(t, project)
    expect((await get(`/bugs/${r.reportNumber}/triage`)).status).toBe(403)
  })
})
