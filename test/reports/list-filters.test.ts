import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migrate } from '../../src/db/migrate'
import { rollUpOccurrences } from '../../src/modules/analytics/analytics.rollup'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { pngDataUrl } from '../sdk/sdk-helpers'
import { manyWithFacet, team } from './setup'
import { COUNT_CAP } from '../../src/modules/reports/reports.list'
import { databaseParts } from '../../src/modules/registry'
import { onSqlite } from '../helpers/pg-engine'
import { sqlRows, sqlRun } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

type Bug = { report_number: number }
const DAY = 86_400_000

/**
 * Player reports sent through the SDK, a minute apart; the same title stacks onto the first report.
 * #1 "Door stuck": 1.2.0 Windows from p1, then 1.3.0 Linux from p2 (with a screenshot) — its own
 * columns still say 1.2.0 / Windows. #2 "Sky flickers": 1.3.0-beta on "Steam Deck" from p3.
 * #3 "Crash in shop": NullReferenceException, 1.2.0 Windows from p2. #4 "Boss crash":
 * System.NullReferenceException from a .NET client. #5 "Menu lag": IndexOutOfRangeException, macOS.
 */
async function seeded() {
  const ctx = await team(t)
  const key = ctx.project.apiKey
  const submit = async (body: Record<string, unknown>) => {
    t.clock.advance(60_000)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { description: 'It happened', ...body } })
    expect(res.status).toBeLessThan(300)
    return res.body.data
  }
  await submit({ title: 'Door stuck', game_version: '1.2.0', platform: 'Windows', steam_id: 'p1' })
  await submit({ title: 'Door stuck', game_version: '1.3.0', platform: 'Linux', steam_id: 'p2', screenshot: pngDataUrl() })
  await submit({ title: 'Sky flickers', game_version: '1.3.0-beta', platform: 'Steam Deck', steam_id: 'p3' })
  await submit({ title: 'Crash in shop: NullReferenceException', game_version: '1.2.0', platform: 'Windows', steam_id: 'p2' })
  await submit({ title: 'Boss crash', description: 'System.NullReferenceException: Object reference not set', game_version: '1.3.0', platform: 'Windows', steam_id: 'p4' })
  await submit({ title: 'Menu lag: IndexOutOfRangeException', game_version: '1.3.0', platform: 'macOS', steam_id: 'p5' })
  const list = async (query: string) => {
    const res = await t.request('GET', `${ctx.base}/bugs?${query}`, { token: ctx.owner.token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.data as { bugs: (Bug & Record<string, any>)[]; total: number; total_capped: boolean }
  }
  const numbers = async (query: string) => (await list(query)).bugs.map((b) => b.report_number)
  return { ...ctx, submit, list, numbers }
}

const q = (s: string) => `q=${encodeURIComponent(s)}`

describe('list filters in q and as parameters', () => {
  it('version:, platform: and player: match a report with any occurrence from them, not only its own fields', async () => {
    const { numbers, list } = await seeded()
    // #1's own game_version and platform are those of its first occurrence.
    expect((await list(q('Door'))).bugs[0]).toMatchObject({ report_number: 1, game_version: '1.2.0', platform: 'Windows' })
    expect(await numbers(q('version:1.3.0'))).toEqual([5, 4, 1])
    expect(await numbers('version=1.3.0')).toEqual([5, 4, 1])
    expect(await numbers(q('version:1.2.0'))).toEqual([3, 1])
    expect(await numbers(q('platform:linux'))).toEqual([1])
    expect(await numbers(q('platform:"steam deck"'))).toEqual([2])
    expect(await numbers('platform=Steam%20Deck')).toEqual([2])
    expect(await numbers(q('player:p2'))).toEqual([3, 1])
    expect(await numbers('player=p2')).toEqual([3, 1])
    expect(await numbers(q('player:nobody'))).toEqual([])
  })

  it('ANDs filters with each other, with parameters and with the words left in q', async () => {
    const { numbers, list } = await seeded()
    expect(await numbers(q('version:1.3.0 platform:Windows'))).toEqual([4, 1])
    // Several version, platform and screenshot filters (on PostgreSQL: intersected in one index), in any case.
    expect(await numbers(q('version:1.3.0 platform:windows'))).toEqual([4, 1])
    expect(await numbers(q('version:1.3.0 platform:LINUX has:screenshot'))).toEqual([1])
    expect(await numbers(q('version:1.3.0 platform:Linux has:screenshot player:p2'))).toEqual([1])
    expect(await numbers(q('version:1.3.0 platform:Linux has:screenshot player:p3'))).toEqual([])
    expect(await numbers(q('version:9.9 platform:Linux'))).toEqual([])
    expect(await numbers(q('door version:1.3.0 platform:linux'))).toEqual([1])
    expect(await numbers(q('version:1.3.0 platform:windows is:unassigned error:NullReferenceException'))).toEqual([4])
    expect(await numbers(`${q('version:1.3.0')}&platform=macOS`)).toEqual([5])
    expect(await numbers(q('version:1.2.0 version:1.3.0'))).toEqual([1])
    expect(await numbers(q('door version:1.3.0'))).toEqual([1])
    expect(await numbers(q('crash version:1.3.0'))).toEqual([4])
    expect(await numbers(q('crash -boss player:p2'))).toEqual([3])
    // The rarer of words and facet drives: here the player (one report) rather than "crash" (two).
    expect(await list(q('crash player:p4'))).toMatchObject({ total: 1, bugs: [{ report_number: 4 }] })
    expect(await list(q('crash player:p4 platform:windows'))).toMatchObject({ total: 1, bugs: [{ report_number: 4 }] })
    const page = await list(q('version:1.3.0'))
    expect(page).toMatchObject({ total: 3, total_capped: false })
    // Filters and the status parameter together.
    expect(await numbers(`${q('version:1.3.0')}&status=open`)).toEqual([5, 4, 1])
    expect(await numbers(`${q('version:1.3.0')}&status=closed`)).toEqual([])
  })

  it('a filter inside quotes, or with nothing after the colon, is searched as text', async () => {
    const { numbers, submit } = await seeded()
    await submit({ title: 'Wrong text in version: screen', description: 'The about page says "version:1.3" twice' })
    expect(await numbers(q('"version:1.3"'))).toEqual([6])
    expect(await numbers(q('version: screen'))).toEqual([6])
  })

  it('error: matches the error type read from title and stack trace, exactly or after a namespace, in any case', async () => {
    const { numbers, list } = await seeded()
    const byNumber = Object.fromEntries((await list('')).bugs.map((b) => [b.report_number, b.error_type]))
    expect(byNumber).toMatchObject({ 3: 'NullReferenceException', 4: 'System.NullReferenceException', 5: 'IndexOutOfRangeException' })
    expect(await numbers(q('error:NullReferenceException'))).toEqual([4, 3])
    expect(await numbers(q('error:nullreferenceexception'))).toEqual([4, 3])
    expect(await numbers(q('error:System.NullReferenceException'))).toEqual([4])
    expect(await numbers(q('error:IndexOutOfRangeException'))).toEqual([5])
    expect(await numbers(q('error:Reference'))).toEqual([])
    expect(await numbers(q('error:KeyNotFoundException'))).toEqual([])
    expect(await numbers(q('error:NullReferenceException version:1.3.0'))).toEqual([4])
    // The parameter stays exact.
    expect(await numbers('error_type=NullReferenceException')).toEqual([3])
  })

  it('is:unassigned, is:regression and has:screenshot', async () => {
    const { numbers, owner, base, submit } = await seeded()
    expect(await numbers(q('has:screenshot'))).toEqual([1])
    expect(await numbers('has_screenshot=true')).toEqual([1])
    expect(await numbers(q('is:regression'))).toEqual([])
    await t.request('PATCH', `${base}/bugs/2`, { token: owner.token, body: { assigned_to: owner.user.id } })
    expect(await numbers(q('is:unassigned'))).toEqual([5, 4, 3, 1])
    expect(await numbers(`${q('is:unassigned')}&assigned_to=${owner.user.id}`)).toEqual([])
    // Resolved in 1.3.0-beta, crashes again in 1.3.0: a regression, which stays marked once resolved again.
    await t.request('PATCH', `${base}/bugs/2`, { token: owner.token, body: { status: 'resolved' } })
    await submit({ title: 'Sky flickers', game_version: '1.3.0', platform: 'Windows', steam_id: 'p9' })
    expect(await numbers(q('is:regression'))).toEqual([2])
    expect(await numbers('regression=true')).toEqual([2])
    await t.request('PATCH', `${base}/bugs/2`, { token: owner.token, body: { status: 'resolved' } })
    expect(await numbers(q('is:regression is:unassigned'))).toEqual([])
    expect(await numbers(`${q('is:regression')}&status=resolved`)).toEqual([2])
  })

  it('fingerprint: lists every live report of a grouping key, whatever its status', async () => {
    const { numbers, owner, base, submit } = await seeded()
    const read = async (n: number) => (await t.request('GET', `${base}/bugs/${n}`, { token: owner.token })).body.data.bug
    const { fingerprint } = await read(1)
    expect(fingerprint).toMatch(/^[0-9a-f]{32}$/)
    // A closed report takes no more occurrences: the same title files a new report with the same key.
    await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { status: 'closed' } })
    const again = await submit({ title: 'Door stuck', game_version: '1.3.0' })
    expect(again.report_number).toBe(6)
    // The next one joins #6, the oldest report of the key that still takes occurrences (the closed #1 is passed over).
    expect(await submit({ title: 'Door stuck' })).toMatchObject({ report_number: 6, deduplicated: true })
    expect(await numbers(q(`fingerprint:${fingerprint}`))).toEqual([6, 1])
    expect(await numbers(`fingerprint=${fingerprint.toUpperCase()}`)).toEqual([6, 1])
    expect(await numbers(q(`fingerprint:${fingerprint} version:1.2.0`))).toEqual([1])
  })

  it('sorts filtered lists by last seen, events, players, votes and priority', async () => {
    const { numbers, submit } = await seeded()
    await submit({ title: 'Menu lag: IndexOutOfRangeException', game_version: '1.3.0', platform: 'Windows', steam_id: 'p6' })
    await submit({ title: 'Menu lag: IndexOutOfRangeException', game_version: '1.3.0', platform: 'Windows', steam_id: 'p6' })
    expect(await numbers(`${q('version:1.3.0')}&sort=occurrences`)).toEqual([5, 1, 4])
    expect(await numbers(`${q('version:1.3.0')}&sort=players`)).toEqual([5, 1, 4])
    expect(await numbers(`${q('version:1.3.0')}&sort=last_seen`)).toEqual([5, 4, 1])
    expect(await numbers(`${q('platform:windows')}&sort=newest`)).toEqual([5, 4, 3, 1])
    expect(await numbers(`${q('platform:windows')}&sort=upvotes`)).toEqual([5, 4, 3, 1])
    expect(await numbers(`${q('platform:windows')}&sort=priority`)).toEqual([5, 4, 3, 1])
  })

  it.each([
    ['is:nothing', 'is:nothing is not a filter'],
    ['has:video', 'has:video is not a filter'],
    ['-version:1.3.0', 'cannot be negated'],
    ['version:1 version:2 version:3 platform:a platform:b player:c player:d error:e is:unassigned', 'at most 8 filters'],
  ])('refuses %s with a clear 400', async (query, message) => {
    const { owner, base } = await seeded()
    const res = await t.request('GET', `${base}/bugs?${q(query)}`, { token: owner.token })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ ok: false })
    expect(res.body.error).toContain(message)
  })

  it('split takes from the original the versions only the moved occurrences had; merge brings the merged reports\' facets', async () => {
    const { numbers, owner, base, list } = await seeded()
    const occurrences = (await t.request('GET', `${base}/bugs/1/occurrences`, { token: owner.token })).body.data.occurrences
    const linux = occurrences.find((o: { platform: string }) => o.platform === 'Linux')
    const split = await t.request('POST', `${base}/bugs/1/split`, { token: owner.token, body: { occurrence_ids: [linux.id] } })
    expect(split.status).toBe(201)
    expect(split.body.data.report_number).toBe(6)
    expect(await numbers(q('version:1.3.0'))).toEqual([6, 5, 4])
    expect(await numbers(q('platform:linux'))).toEqual([6])
    expect(await numbers(q('player:p2'))).toEqual([6, 3])
    expect(await numbers(q('has:screenshot'))).toEqual([6])
    expect(await numbers(q('version:1.2.0'))).toEqual([3, 1])
    expect(await numbers(q('version:1.3.0 platform:linux has:screenshot'))).toEqual([6])
    expect(await numbers(q('version:1.2.0 platform:linux'))).toEqual([])
    const merged = await t.request('POST', `${base}/bugs/1/merge`, { token: owner.token, body: { numbers: [6, 2] } })
    expect(merged.status).toBe(200)
    expect(await numbers(q('version:1.3.0'))).toEqual([5, 4, 1])
    expect((await list(q('version:1.3.0'))).total).toBe(3)
    expect((await list(q('player:p2 platform:linux'))).total).toBe(1)
    expect(await numbers(q('platform:"Steam Deck"'))).toEqual([1])
    expect(await numbers(q('has:screenshot player:p2'))).toEqual([1])
    expect(await numbers(q('version:1.3.0 platform:linux has:screenshot'))).toEqual([1])
    expect(await numbers(q('version:1.3.0-beta platform:"steam deck"'))).toEqual([1])
  })

  it('a facet that matches more than 10,000 reports pages by any sort: capped total, the sort\'s index probing the facet', async () => {
    const { owner, base, project } = await team(t)
    await manyWithFacet(t, project, COUNT_CAP + 5)
    await sqlRun(t, 'UPDATE reports SET upvotes = 5 WHERE project_id = ? AND report_number IN (10003, 15000, 20004)', project.id)
    for (const sort of ['upvotes', 'newest']) {
      const res = await t.request('GET', `${base}/bugs?${q('version:1.0')}&sort=${sort}`, { token: owner.token })
      expect(res.body.data).toMatchObject({ total: COUNT_CAP, total_capped: true })
      const first = res.body.data.bugs.slice(0, 3).map((b: Bug) => b.report_number)
      expect(first).toEqual(sort === 'upvotes' ? [20004, 15000, 10003] : [20005, 20004, 20003])
    }
    // Newest first, pages are cut from one walk of the matches up to the cap, and read past it as before.
    const pageOf = async (page: number) => (await t.request('GET', `${base}/bugs?${q('version:1.0')}&page=${page}`, { token: owner.token })).body.data.bugs.map((b: Bug) => b.report_number)
    expect(await pageOf(2)).toEqual(Array.from({ length: 25 }, (_, i) => 19980 - i))
    expect(await pageOf(400)).toEqual(Array.from({ length: 25 }, (_, i) => 10030 - i))
    expect(await pageOf(401)).toEqual([10005, 10004, 10003, 10002, 10001])
  }, 120_000)

  it('GET /bugs/facets lists the versions (newest first) and platforms the occurrences came from', async () => {
    const { owner, base } = await seeded()
    const res = await t.request('GET', `${base}/bugs/facets`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ versions: ['1.3.0', '1.3.0-beta', '1.2.0'], platforms: ['Linux', 'macOS', 'Steam Deck', 'Windows'], runtimes: [], browsers: [], environments: [] })
    expect((await t.request('GET', `${base}/bugs/facets`)).status).toBe(401)
  })
})

describe('a database that had reports before these tables', () => {
  it.skipIf(!onSqlite)('fills the facets from every occurrence and the daily counts up to the rollup cursor at the next start (SQLite: migration backfill)', async () => {
    const { numbers, list, submit } = await seeded()
    await rollUpOccurrences(t.deps.db)
    await submit({ title: 'Door stuck', game_version: '1.4.0', platform: 'Linux' })
    const before = await list('')
    t.sqlite.exec('DROP TABLE report_facets; DROP TABLE report_daily')
    migrate(t.sqlite, databaseParts)
    expect(await numbers(q('version:1.3.0'))).toEqual([5, 4, 1])
    expect(await numbers(q('version:1.4.0 has:screenshot player:p2'))).toEqual([1])
    expect(await list('')).toEqual(before)
    expect(((await sqlRows(t, 'SELECT sum(n) AS n FROM report_daily'))[0] as { n: number }).n).toBe(6)
  })
})

describe('sparklines', () => {
  it('counts each report\'s occurrences per UTC day over 14 days, today last, before and after the rollup runs', async () => {
    const { list, submit } = await seeded()
    // #1 gets two more occurrences three days ago and one today; #2 one 20 days ago (outside the window).
    const today = t.clock.now()
    t.clock.set(today.getTime() - 3 * DAY)
    await submit({ title: 'Door stuck' })
    await submit({ title: 'Door stuck' })
    t.clock.set(today.getTime() - 20 * DAY)
    await submit({ title: 'Sky flickers' })
    t.clock.set(today.getTime() + 10 * 60_000)
    await submit({ title: 'Door stuck' })
    const expected1 = [...new Array(10).fill(0), 2, 0, 0, 3]
    const spark = async () => Object.fromEntries((await list('')).bugs.map((b) => [b.report_number, b.sparkline]))
    const before = await spark()
    expect(before[1]).toEqual(expected1)
    expect(before[2]).toEqual([...new Array(13).fill(0), 1])
    expect(before[5]).toEqual([...new Array(13).fill(0), 1])
    expect(await rollUpOccurrences(t.deps.db)).toBe(10)
    expect(await spark()).toEqual(before)
    // Past the cursor again, half counted, half not.
    await submit({ title: 'Door stuck' })
    expect((await spark())[1]).toEqual([...new Array(10).fill(0), 2, 0, 0, 4])
    // The next day, the window moves.
    t.clock.advance(DAY)
    expect((await spark())[1]).toEqual([...new Array(9).fill(0), 2, 0, 0, 4, 0])
  })

  it('moves with the occurrences when reports are split and merged', async () => {
    const { list, submit, owner, base } = await seeded()
    await submit({ title: 'Door stuck', steam_id: 'p7' })
    await rollUpOccurrences(t.deps.db)
    const spark = async () => Object.fromEntries((await list('')).bugs.map((b) => [b.report_number, b.sparkline.at(-1)]))
    expect((await spark())[1]).toBe(3)
    const occurrences = (await t.request('GET', `${base}/bugs/1/occurrences`, { token: owner.token })).body.data.occurrences
    await t.request('POST', `${base}/bugs/1/split`, { token: owner.token, body: { occurrence_ids: [occurrences[0].id, occurrences[1].id] } })
    expect(await spark()).toMatchObject({ 1: 1, 6: 2 })
    await t.request('POST', `${base}/bugs/6/merge`, { token: owner.token, body: { numbers: [1, 2] } })
    expect(await spark()).toMatchObject({ 6: 4 })
    await rollUpOccurrences(t.deps.db)
    expect(await spark()).toMatchObject({ 6: 4 })
  })
})
