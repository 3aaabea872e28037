// A player who files reports from the game but never starts a play session (an SDK that sends only
// reports) has a player page: the analytics rollup gives them a player row, and migration 0016 gave
// one to those who had filed before it.
import { afterEach, describe, expect, it } from 'vitest'
import { rawSqlite } from '../../src/db/client'
import { embeddedMigrations } from '../../src/db/migrations.embedded'
import { createReportIn } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { addSessions, at, NOW, rollUp, setup } from './analytics-helpers'

let close: (() => void) | undefined
afterEach(() => close?.())

type Ctx = Awaited<ReturnType<typeof setup>>
/** Files a report `daysAgo` days before NOW (the service stamps it with the clock), then puts the clock back. */
async function fileAt({ t, project }: Ctx, daysAgo: number, input: Parameters<typeof createReportIn>[2]) {
  t.clock.set(at(daysAgo))
  const report = await createReportIn(t, project, input)
  t.clock.set(NOW)
  return report
}

describe('players who only filed reports', () => {
  it('are listed and read after the rollup, seen from their first to their last report, with no sessions', async () => {
    const ctx = await setup()
    const { t, project, get } = ctx
    close = t.close
    await addSessions(t, project, { n: 1, player: 'steam-1', daysAgo: 3 })
    const first = await fileAt(ctx, 5, { title: 'Stuck in wall', description: 'x', playerId: 'reporter-7' })
    await fileAt(ctx, 1, { title: 'Audio cuts out', description: 'x', playerId: 'reporter-7' })
    // Before the rollup counts their reports, the player is unknown.
    expect((await get('/players/reporter-7')).status).toBe(404)
    await rollUp(t)

    const one = await get('/players/reporter-7')
    expect(one.status).toBe(200)
    expect(one.body.data).toMatchObject({ player_id: 'reporter-7', session_count: 0, reports: 2, first_seen: at(5).toISOString(), last_seen: at(1).toISOString(), stored_sessions: { ended: 0, crashed: 0, play_seconds: 0 } })
    expect((await get('/players')).body.data.players.map((p: any) => p.player_id)).toEqual(['reporter-7', 'steam-1'])
    expect((await get('/players/reporter-7/bugs')).body.data.bugs.map((b: any) => b.title)).toEqual(['Audio cuts out', 'Stuck in wall'])
    expect((await get('/players/reporter-7/sessions')).body.data.sessions).toEqual([])
    expect(first.reportNumber).toBeGreaterThan(0)
  })

  it("keep a session player's counts when they also file a report", async () => {
    const ctx = await setup()
    const { t, project, get } = ctx
    close = t.close
    await addSessions(t, project, { n: 2, player: 'steam-1', daysAgo: 3 })
    const before = (await get('/players/steam-1')).body.data
    await fileAt(ctx, 0, { title: 'Crash on load', description: 'x', playerId: 'steam-1' })
    await rollUp(t)
    const after = (await get('/players/steam-1')).body.data
    expect(before.session_count).toBeGreaterThan(0)
    expect(after).toMatchObject({ session_count: before.session_count, first_seen: before.first_seen, last_seen: at(0).toISOString(), reports: 1 })
  })

  it.skipIf(!onSqlite)('migration 0016 gives earlier reporters a player row and leaves session players counted (SQLite: migration)', async () => {
    const ctx = await setup()
    const { t, project, get } = ctx
    close = t.close
    await addSessions(t, project, { n: 2, player: 'steam-1', daysAgo: 3 })
    await fileAt(ctx, 9, { title: 'Old report', description: 'x', playerId: 'old-reporter' })
    await fileAt(ctx, 20, { title: 'Older report', description: 'x', playerId: 'old-reporter' })
    await fileAt(ctx, 10, { title: 'By a session player', description: 'x', playerId: 'steam-1' })
    await createReportIn(t, project, { title: 'Anonymous', description: 'x', playerId: null })
    expect((await get('/players/old-reporter')).status).toBe(404)
    const steamBefore = (await get('/players/steam-1')).body.data
    const migration = embeddedMigrations.find((m) => m.tag === '0016_players_from_reports')!
    rawSqlite(t.deps.db).run(migration.sql)

    expect((await get('/players/old-reporter')).body.data).toMatchObject({ session_count: 0, first_seen: at(20).toISOString(), last_seen: at(9).toISOString() })
    const steam = (await get('/players/steam-1')).body.data
    expect(steam.session_count).toBe(steamBefore.session_count)
    expect(steam.first_seen).toBe(at(10).toISOString())
    expect(steam.last_seen).toBe(steamBefore.last_seen)
    expect((await get('/players')).body.data.total).toBe(2)
  })
})
