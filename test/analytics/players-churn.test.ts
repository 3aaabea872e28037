import { afterEach, describe, expect, it } from 'vitest'
import { comments } from '../../src/modules/comments/comments.table'
import { newId } from '../../src/lib/ids'
import { createReportIn } from '../helpers/fixtures'
import { addSessions, at, rollUp, setup } from './analytics-helpers'

let close: (() => void) | undefined
afterEach(() => close?.())

describe('players', () => {
  it('lists, searches, reads, annotates and shows sessions and reports of players', async () => {
    const { t, project, get, owner } = await setup()
    close = t.close
    await addSessions(t, project, { n: 2, crashed: 1, player: 'steam-1', daysAgo: 2 })
    await addSessions(t, project, { n: 1, player: 'steam-2', daysAgo: 40 })
    await addSessions(t, project, { n: 1, player: 'epic-9' })
    const r = await createReportIn(t, project, { title: 'Stuck', description: 'x', playerId: 'steam-1' })
    await rollUp(t)
    const list = await get('/players')
    expect(list.body.data).toMatchObject({ total: 3, page: 1, per_page: 25 })
    expect(list.body.data.players.map((p: any) => p.player_id)).toEqual(['epic-9', 'steam-1', 'steam-2'])
    expect((await get('/players?q=STEAM')).body.data.total).toBe(2)
    expect((await get('/players?q=Name%20epic')).body.data.players.map((p: any) => p.player_id)).toEqual(['epic-9'])
    expect((await get('/players?page=0')).status).toBe(400)

    const one = await get('/players/steam-1')
    expect(one.body.data).toMatchObject({ player_id: 'steam-1', stored_sessions: { ended: 2, crashed: 1, play_seconds: 1200 }, reports: 1, notes: '', sentiment: null })
    expect((await get('/players/nobody')).status).toBe(404)

    const patch = (body: unknown) => t.request('PATCH', `/api/projects/${project.slug}/players/steam-1`, { token: owner.token, body })
    expect((await patch({ notes: 'Streams the game', sentiment: 'positive' })).body.data).toMatchObject({ notes: 'Streams the game', sentiment: 'positive' })
    expect((await patch({ sentiment: null })).body.data).toMatchObject({ notes: 'Streams the game', sentiment: null })
    expect((await patch({ sentiment: 'angry' })).status).toBe(400)
    expect((await patch({})).status).toBe(400)

    const sessions = (await get('/players/steam-1/sessions')).body.data.sessions
    expect(sessions).toHaveLength(2)
    expect(sessions.filter((s: any) => s.crashed)).toHaveLength(1)
    expect((await get('/players/steam-1/bugs')).body.data.bugs).toMatchObject([{ report_number: r.reportNumber, title: 'Stuck' }])

    await patch({ sentiment: 'negative' })
    // active: last seen within 7 days: steam-1 (2 days), epic-9 (today); within 30: same; steam-2 at 40 days is neither
    expect((await get('/customers/overview')).body.data).toEqual({ players: 3, active_7_days: 2, active_30_days: 2, reporting_players: 1, sentiment: { positive: 0, neutral: 0, negative: 1, unrated: 2 } })
  })
})

describe('churn risk (tier 2)', () => {
  it('lists players with recent crashes, unanswered negative reports, or who stopped after a crash, with reasons', async () => {
    const { t, project, get } = await setup('studio')
    close = t.close
    await addSessions(t, project, { n: 3, crashed: 1, player: 'crashy', daysAgo: 1 })
    await addSessions(t, project, { n: 1, crashed: 1, player: 'gone', daysAgo: 10 })
    await addSessions(t, project, { n: 2, player: 'happy', daysAgo: 1 })
    await createReportIn(t, project, { title: 'Awful', description: 'x', playerId: 'angry', sentimentLevel: 'negative' })
    const answered = await createReportIn(t, project, { title: 'Bad', description: 'x', playerId: 'happy', sentimentLevel: 'negative' })
    await t.deps.db.write((q) => q.insert(comments).values({ id: newId(), reportId: answered.id, projectId: project.id, body: 'Fixed soon', isInternal: false, createdAt: at(0), updatedAt: at(0) }))
    const res = await get('/churn-risk')
    expect(res.status).toBe(200)
    const byId = Object.fromEntries(res.body.data.players.map((p: any) => [p.player_id, p.reasons]))
    expect(Object.keys(byId).sort()).toEqual(['angry', 'crashy', 'gone'])
    expect(byId.crashy).toEqual(['1 of their 3 sessions in the last 7 days crashed'])
    expect(byId.angry[0]).toMatch(/^1 negative report in the last 30 days without a public reply/)
    expect(byId.gone).toEqual(['their last session crashed and they have not played for 10 days'])
  })

  it('is 403 on free', async () => {
    const { t, get } = await setup('free')
    close = t.close
    expect((await get('/churn-risk')).status).toBe(403)
  })
})
