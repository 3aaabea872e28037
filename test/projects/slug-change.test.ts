// The project slug is editable (issue 25): any slug free on this server is taken as typed, and the
// old URLs redirect to the new ones for 90 days.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { getPage, pagesWorld, postForm, putSettings } from '../public-pages/pages-fixtures'
import { addTeammate } from './team-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
let old: string
beforeEach(async () => {
  ;({ t, owner, project } = await pagesWorld())
  old = project.slug
})
afterEach(() => t.close())

const rename = (slug: unknown, who: TestUser = owner, at = project.slug) => t.request('PATCH', `/api/projects/${at}`, { token: who.token, body: { slug } })
const statusAndLocation = (res: { status: number; headers: Headers }) => [res.status, res.headers.get('location')]

describe('PATCH /api/projects/:slug with a slug', () => {
  it('takes a free slug as typed (no creator prefix), answers it, and the project lives there', async () => {
    expect(old).not.toBe('star-forge')
    const res = await rename('  Star-Forge ')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ message: 'Project updated', slug: 'star-forge' })
    const read = await t.request('GET', '/api/projects/star-forge', { token: owner.token })
    expect(read.body.data).toMatchObject({ id: project.id, slug: 'star-forge' })
    expect((await t.request('GET', '/api/projects', { token: owner.token })).body.data.map((p: { slug: string }) => p.slug)).toEqual(['star-forge'])
    const log = (await t.request('GET', '/api/projects/star-forge/audit-log', { token: owner.token })).body.data
    expect(log.entries[0]).toMatchObject({ action: 'project.updated', details: { changes: { slug: [old, 'star-forge'] } } })
  })

  it.each([
    ['spaces', 'star forge'],
    ['a leading hyphen', '-star'],
    ['a trailing hyphen', 'star-'],
    ['other characters', 'stär'],
    ['61 characters', 'a'.repeat(61)],
    ['the dashboard path "new"', 'new'],
    ['an empty string', ''],
    ['a number', 42],
  ])('refuses %s with 400 and keeps the slug', async (_, slug) => {
    const res = await rename(slug)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/^slug/)
    expect((await t.request('GET', `/api/projects/${old}`, { token: owner.token })).status).toBe(200)
  })

  it("refuses another project's slug and a renamed project's old slug (409) while its redirect lasts; the project's own old slug can be taken back", async () => {
    const other = await createProject(t, owner, { name: 'Moon Base' })
    expect((await rename(other.slug)).status).toBe(409)
    expect((await rename('star')).status).toBe(200)
    // `old` now redirects to `star`: nobody else may take it, the project itself may.
    const taken = await rename(old, owner, other.slug)
    expect(taken.status).toBe(409)
    expect(taken.body.error).toBe(`the slug ${old} is taken on this server; choose another`)
    expect((await rename(old, owner, 'star')).body.data.slug).toBe(old)
    expect(statusAndLocation(await t.request('GET', `/api/projects/star`, { token: owner.token }))).toEqual([301, `/api/projects/${old}`])
    expect((await rename('star', owner, other.slug)).status).toBe(409)
  })

  it('skips a held old slug when naming a new project', async () => {
    const stranger = await createUser(t)
    const heldSlug = (await t.request('POST', '/api/projects', { token: stranger.token, body: { name: 'Ice Cave' } })).body.data.slug
    expect(heldSlug).toMatch(/^[0-9a-f]{6}-ice-cave$/)
    expect((await rename('ice-cave', stranger, heldSlug)).status).toBe(200)
    const created = await t.request('POST', '/api/projects', { token: stranger.token, body: { name: 'Ice Cave' } })
    expect(created.body.data.slug).toBe(`${heldSlug}-2`)
  })

  it('needs project.settings (403); a non-member gets 404', async () => {
    const member = await addTeammate(t, owner, { overrides: { 'project.settings': false } })
    const stranger = await createUser(t)
    expect((await rename('nope', member)).status).toBe(403)
    expect((await rename('nope', stranger)).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${old}`, { token: owner.token })).body.data.slug).toBe(old)
  })
})

describe('the old slug after a rename', () => {
  it('redirects public pages and the public API with 301 (GET) and 308 (other methods) for 90 days, query kept; then it is free', async () => {
    const bug = await createReportIn(t, project, { title: 'Lava is cold' })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, show_upvotes: true })
    expect((await rename('star-forge')).status).toBe(200)

    const pages = [
      [`/tracker/${old}?q=lava&page=1`, '/tracker/star-forge?q=lava&page=1'],
      [`/tracker/${old}/${bug.reportNumber}`, `/tracker/star-forge/${bug.reportNumber}`],
      [`/tracker/${old}/report`, '/tracker/star-forge/report'],
      [`/roadmap/${old}`, '/roadmap/star-forge'],
      [`/changelog/${old}`, '/changelog/star-forge'],
      [`/changelog/${old}/feed.xml`, '/changelog/star-forge/feed.xml'],
    ]
    for (const [from, to] of pages) expect(statusAndLocation(await getPage(t, from!)), from).toEqual([301, to])
    const api = [
      [`/api/tracker/${old}?page=1`, '/api/tracker/star-forge?page=1'],
      [`/api/v1/tracker/${old}/bugs/${bug.reportNumber}`, `/api/v1/tracker/star-forge/bugs/${bug.reportNumber}`],
      [`/api/roadmap/${old}`, '/api/roadmap/star-forge'],
      [`/api/branding/${old}`, '/api/branding/star-forge'],
      [`/api/projects/${old}/changelog`, '/api/projects/star-forge/changelog'],
    ]
    for (const [from, to] of api) {
      const res = await t.request('GET', from!)
      expect(statusAndLocation(res), from).toEqual([301, to])
      expect(res.body).toEqual({ ok: false, error: "this project's address changed: its slug is now star-forge", slug: 'star-forge' })
    }
    // A vote keeps its method and body through 308.
    expect(statusAndLocation(await t.request('POST', `/api/tracker/${old}/bugs/${bug.reportNumber}/vote`))).toEqual([308, `/api/tracker/star-forge/bugs/${bug.reportNumber}/vote`])
    expect(statusAndLocation(await postForm(t, `/tracker/${old}/${bug.reportNumber}/vote`, {}))).toEqual([308, `/tracker/star-forge/${bug.reportNumber}/vote`])
    // The new URLs answer.
    expect((await getPage(t, '/tracker/star-forge')).status).toBe(200)
    expect((await t.request('GET', '/api/tracker/star-forge')).status).toBe(200)

    t.clock.advance(90 * DAY - 1)
    expect((await getPage(t, `/tracker/${old}`)).status).toBe(301)
    t.clock.advance(1)
    expect((await getPage(t, `/tracker/${old}`)).status).toBe(404)
    expect((await t.request('GET', `/api/tracker/${old}`)).status).toBe(404)
    // Sessions last 30 days: the owner signs in again to give the freed slug to another project.
    const again = { ...owner, token: await createSession(t.deps.db, owner.user.id, t.clock.now()) }
    const other = await createProject(t, owner, { name: 'Moon Base' })
    expect((await rename(old, again, other.slug)).body.data.slug).toBe(old)
    expect((await getPage(t, `/tracker/${old}`)).status).toBe(404)
  })

  it('redirects team routes for members of the account (301 GET, 308 otherwise); others still get 404', async () => {
    const member = await addTeammate(t, owner)
    const stranger = await createUser(t)
    expect((await rename('star-forge')).status).toBe(200)
    expect(statusAndLocation(await t.request('GET', `/api/projects/${old}/labels`, { token: member.token }))).toEqual([301, '/api/projects/star-forge/labels'])
    expect(statusAndLocation(await t.request('GET', `/api/v1/projects/${old}?x=1`, { token: owner.token }))).toEqual([301, '/api/v1/projects/star-forge?x=1'])
    const patch = await t.request('PATCH', `/api/projects/${old}`, { token: owner.token, body: { name: 'Star Forge 2' } })
    expect(statusAndLocation(patch)).toEqual([308, '/api/projects/star-forge'])
    expect(patch.body.slug).toBe('star-forge')
    const refused = await t.request('GET', `/api/projects/${old}/labels`, { token: stranger.token })
    expect(refused.status).toBe(404)
    expect(JSON.stringify(refused.body)).not.toContain('star-forge')
    expect((await t.request('GET', `/api/projects/${old}/labels`)).status).toBe(401)
  })

  it('a renamed project renamed again: both old slugs lead to the current one', async () => {
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    expect((await rename('star-forge')).status).toBe(200)
    expect((await rename('forge', owner, 'star-forge')).status).toBe(200)
    expect(statusAndLocation(await getPage(t, `/tracker/${old}`))).toEqual([301, '/tracker/forge'])
    expect(statusAndLocation(await getPage(t, '/tracker/star-forge'))).toEqual([301, '/tracker/forge'])
  })

  it('leaves unknown slugs and disabled pages alone: 404 at the old URL as at the new one', async () => {
    expect((await rename('star-forge')).status).toBe(200)
    expect((await getPage(t, '/tracker/never-was')).status).toBe(404)
    // The tracker is off: a redirect would only tell a stranger the new slug (issue 28, finding 7).
    expect(statusAndLocation(await getPage(t, `/tracker/${old}`))).toEqual([404, null])
    expect((await getPage(t, '/tracker/star-forge')).status).toBe(404)
  })
})
