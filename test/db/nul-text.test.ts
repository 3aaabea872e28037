// A NUL (U+0000) in a path, a query or a body: SQLite's text holds it, PostgreSQL's refuses it ("invalid
// byte sequence"), which answered 500 on PostgreSQL for every route that binds the value (found by the
// operations fuzz there). The seam now binds U+FFFD in its place on PostgreSQL: same answers on both engines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

/** A title as the engine keeps it: the NUL itself (SQLite) or U+FFFD (PostgreSQL). */
const asStored = (text: string) => text.replaceAll('\0', '\uFFFD')

describe('a NUL character sent to the API', () => {
  it('in a path or a query: a lookup that finds nothing (404 or an empty list), never a 500', async () => {
    const owner = await createUser(t)
    const project = await createProject(t, owner)
    const base = `/api/projects/${project.slug}`
    expect((await t.request('GET', '/api/projects/%00', { token: owner.token })).status).toBe(404)
    expect((await t.request('GET', `${base}/bugs/facets?version=%00`, { token: owner.token })).status).toBe(200)
    const activity = await t.request('GET', `${base}/activity?action=%00`, { token: owner.token })
    expect([activity.status, activity.body.data]).toEqual([200, []])
    const search = await t.request('GET', `${base}/bugs?q=%00`, { token: owner.token })
    expect([search.status, search.body.data.total]).toEqual([200, 0])
  })

  it('in a submitted report: filed and listed, the NUL kept as the engine can', async () => {
    const owner = await createUser(t)
    const project = await createProject(t, owner)
    const sent = await t.request('POST', '/api/bugs/submit', { apiKey: project.apiKey, body: { title: 'Crash\0 in the menu', description: 'log:\0\0 end', platform: '\0' } })
    expect(sent.status).toBeLessThan(300)
    const listed = await t.request('GET', `/api/projects/${project.slug}/bugs`, { token: owner.token })
    expect(listed.body.data.bugs.map((b: { title: string }) => asStored(b.title))).toEqual(['Crash\uFFFD in the menu'])
  })
})
