// Issue 25: votes were one per address, so an office behind one address was one voter. The public
// pages give each browser a signed first-party cookie; votes carrying it count per browser (one
// vote each), falling back to the address without it. The per-address caps keep stuffing bounded.
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { COOKIE_VOTES_PER_ADDRESS_PER_DAY } from '../../src/modules/public/votes.service'
import { reports } from '../../src/modules/reports/reports.table'
import type { Report } from '../../src/modules/reports/reports.service'
import { createProject, createReportIn, createUser, type TestProject } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { putSettings, setReport } from './public-fixtures'

let t: TestApp
let project: TestProject
let report: Report
beforeEach(async () => {
  t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0', GLITCHBOX_RATE_LIMIT_GLOBAL: '0' } })
  const owner = await createUser(t)
  project = await createProject(t, owner)
  report = await createReportIn(t, project, { title: 'Lag in the lobby' })
  await setReport(t, report, { published: true, onRoadmap: true })
  await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true })
  await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, show_upvotes: true })
})
afterEach(() => t.close())

const OFFICE = '203.0.113.80'

/** A browser opening a public page: the voter cookie it is given, as it sends it back. */
async function browserCookie(ip = OFFICE, path = `/tracker/${project.slug}`): Promise<string> {
  const res = await t.request('GET', path, { ip, headers: { accept: 'text/html' } })
  expect(res.status).toBe(200)
  const set = res.headers.get('set-cookie')!
  expect(set).toMatch(/^glitchbox_voter=[\w-]{22}\.[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=34560000$/)
  return set.split(';')[0]!
}
const vote = (cookie: string | undefined, o: { ip?: string; body?: unknown; page?: 'tracker' | 'roadmap' } = {}) =>
  t.request('POST', `/api/${o.page ?? 'tracker'}/${project.slug}/bugs/${report.reportNumber}/vote`, { ip: o.ip ?? OFFICE, body: o.body, headers: cookie ? { cookie } : {} })
const upvotes = async () => (await t.deps.db.read((q) => q.select({ n: reports.upvotes }).from(reports).where(eq(reports.id, report.id)).limit(1)))[0]!.n

describe('voter cookies', () => {
  it('count browsers behind one address as separate voters, each once, on the tracker and the roadmap alike', async () => {
    const alice = await browserCookie()
    const bob = await browserCookie(OFFICE, `/roadmap/${project.slug}`)
    expect(alice).not.toBe(bob)
    expect((await vote(alice)).body.data).toEqual({ upvotes: 1, is_new: true })
    expect((await vote(bob)).body.data).toEqual({ upvotes: 2, is_new: true })
    expect((await vote(alice)).body.data).toEqual({ upvotes: 2, is_new: false })
    expect((await vote(bob, { page: 'roadmap' })).body.data).toEqual({ upvotes: 2, is_new: false })
    // The same browser from another address (a phone leaving the office) is still the same voter.
    expect((await vote(alice, { ip: '198.51.100.9' })).body.data).toEqual({ upvotes: 2, is_new: false })
    // Without a cookie the address votes, once.
    expect((await vote(undefined)).body.data).toEqual({ upvotes: 3, is_new: true })
    expect((await vote(undefined)).body.data).toEqual({ upvotes: 3, is_new: false })
    expect(await upvotes()).toBe(3)
  })

  it('ignore forged or mangled cookies: the vote falls back to the address', async () => {
    const real = await browserCookie()
    const [name, value] = real.split('=') as [string, string]
    const [id] = value.split('.')
    for (const forged of [`${name}=${id}.${'0'.repeat(32)}`, `${name}=${'A'.repeat(22)}.${value.split('.')[1]}`, `${name}=garbage`, `${name}=%E0%A4%A`]) {
      expect((await vote(forged)).status).toBe(200)
    }
    // All four counted as the one address.
    expect(await upvotes()).toBe(1)
    expect((await vote(undefined)).body.data).toEqual({ upvotes: 1, is_new: false })
  })

  it('mark the voted button for that browser only, and give no new cookie to a browser that has one', async () => {
    const alice = await browserCookie()
    const bob = await browserCookie()
    await vote(alice)
    const page = (cookie: string) => t.request('GET', `/tracker/${project.slug}`, { ip: OFFICE, headers: { accept: 'text/html', cookie } })
    const seen = await page(alice)
    expect(seen.headers.get('set-cookie')).toBeNull()
    expect(seen.body).toContain('aria-pressed="true"')
    expect((await page(bob)).body).toContain('aria-pressed="false"')
  })

  it(`let one address add at most ${COOKIE_VOTES_PER_ADDRESS_PER_DAY} cookie voters to a report a day, apart from the player-id cap`, async () => {
    const answers = []
    for (let i = 0; i < COOKIE_VOTES_PER_ADDRESS_PER_DAY + 5; i++) answers.push((await vote(await browserCookie())).body.data.is_new)
    expect(answers).toEqual([...Array(COOKIE_VOTES_PER_ADDRESS_PER_DAY).fill(true), ...Array(5).fill(false)])
    // Player-id votes have their own cap of 3, and the plain address vote still counts.
    expect((await vote(undefined, { body: { player_id: 'steam-1' } })).body.data.is_new).toBe(true)
    expect((await vote(undefined)).body.data.is_new).toBe(true)
    expect(await upvotes()).toBe(COOKIE_VOTES_PER_ADDRESS_PER_DAY + 2)
    // Another address is not capped, and a day later this one may add more.
    expect((await vote(await browserCookie('198.51.100.7'), { ip: '198.51.100.7' })).body.data.is_new).toBe(true)
    t.clock.advance(DAY + 1000)
    expect((await vote(await browserCookie())).body.data.is_new).toBe(true)
  })

  it('let a player id name the voter over the cookie', async () => {
    const alice = await browserCookie()
    expect((await vote(alice, { body: { player_id: 'steam-7' } })).body.data).toEqual({ upvotes: 1, is_new: true })
    expect((await vote(alice)).body.data).toEqual({ upvotes: 2, is_new: true })
    expect((await vote(undefined, { body: { player_id: 'steam-7' } })).body.data).toEqual({ upvotes: 2, is_new: false })
  })

  it('are Secure when the public URL is https', async () => {
    t.close()
    t = createTestApp({ env: { GLITCHBOX_PUBLIC_URL: 'https://bugs.example.com' } })
    const owner = await createUser(t)
    project = await createProject(t, owner)
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    const res = await t.request('GET', `/tracker/${project.slug}`, { headers: { accept: 'text/html' } })
    expect(res.headers.get('set-cookie')).toMatch(/; Secure$/)
    // Pages without votes set no cookie.
    expect((await t.request('GET', `/changelog/${project.slug}`, { headers: { accept: 'text/html' } })).headers.get('set-cookie')).toBeNull()
  })
})
