// A renamed project's old slug redirects only callers who could see the project (issue 28, finding 7):
// a member limited to other projects, and anyone asking for a public page that is off, get the 404
// they would get at the new slug, with nothing in the answer that names it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, type TestProject, type TestUser } from '../helpers/fixtures'
import type { TestApp, TestResponse } from '../helpers/test-app'
import { getPage, pagesWorld, postForm, putSettings } from '../public-pages/pages-fixtures'
import { addTeammate } from './team-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
let old: string
beforeEach(async () => {
  ;({ t, owner, project } = await pagesWorld())
  old = project.slug
  await createReportIn(t, project, { title: 'Lava is cold' })
})
afterEach(() => t.close())

const rename = async () => expect((await t.request('PATCH', `/api/projects/${old}`, { token: owner.token, body: { slug: 'secret-sequel' } })).status).toBe(200)
/** A 404 whose status, headers and body say nothing of the new slug. */
const hidden = (res: TestResponse, what: string) => {
  expect([what, res.status, res.headers.get('location')]).toEqual([what, 404, null])
  expect(JSON.stringify([...res.headers, res.body])).not.toContain('secret-sequel')
}

describe('team routes at the old slug', () => {
  it('answer 404 to a member limited to other projects, and 301 to a member who sees the project', async () => {
    const other = await createProject(t, owner, { name: 'Moon Base' })
    const limited = await addTeammate(t, owner)
    const seeing = await addTeammate(t, owner)
    expect((await t.request('PATCH', `/api/account/members/${limited.user.id}`, { token: owner.token, body: { project_access: [other.id] } })).status).toBe(200)
    await rename()
    for (const [method, path] of [
      ['GET', `/api/projects/${old}`],
      ['GET', `/api/v1/projects/${old}/bugs`],
      ['PATCH', `/api/projects/${old}/bugs/1`],
    ] as const) {
      hidden(await t.request(method, path, { token: limited.token, body: method === 'PATCH' ? { title: 'x' } : undefined }), `${method} ${path}`)
    }
    const res = await t.request('GET', `/api/projects/${old}/bugs`, { token: seeing.token })
    expect([res.status, res.headers.get('location')]).toEqual([301, '/api/projects/secret-sequel/bugs'])
  })
})

describe('public pages and the public API at the old slug', () => {
  it('answer 404 while the tracker and the roadmap are off, in page and API forms, reads and votes', async () => {
    await rename()
    hidden(await getPage(t, `/tracker/${old}`), 'tracker page')
    hidden(await getPage(t, `/tracker/${old}/1`), 'report page')
    hidden(await getPage(t, `/tracker/${old}/report`), 'report form')
    hidden(await postForm(t, `/tracker/${old}/1/vote`, {}), 'tracker vote form')
    hidden(await getPage(t, `/roadmap/${old}`), 'roadmap page')
    hidden(await postForm(t, `/roadmap/${old}/1/vote`, {}), 'roadmap vote form')
    hidden(await t.request('GET', `/api/tracker/${old}`), 'tracker API')
    hidden(await t.request('GET', `/api/v1/tracker/${old}/bugs/1`), 'report API')
    hidden(await t.request('GET', `/api/tracker/${old}/similar?title=lava`), 'similar API')
    hidden(await t.request('POST', `/api/tracker/${old}/bugs/1/vote`), 'tracker vote API')
    hidden(await t.request('GET', `/api/roadmap/${old}`), 'roadmap API')
    hidden(await t.request('POST', `/api/roadmap/${old}/bugs/1/vote`), 'roadmap vote API')
  })

  it('redirect once the page is on at the new slug', async () => {
    await rename()
    await putSettings(t, owner, { ...project, slug: 'secret-sequel' }, 'tracker-settings', { enabled: true })
    expect((await getPage(t, `/tracker/${old}/1`)).headers.get('location')).toBe('/tracker/secret-sequel/1')
    expect((await t.request('GET', `/api/tracker/${old}`)).status).toBe(301)
    hidden(await getPage(t, `/roadmap/${old}`), 'roadmap page, still off')
    await putSettings(t, owner, { ...project, slug: 'secret-sequel' }, 'roadmap-settings', { enabled: true })
    expect((await t.request('GET', `/api/roadmap/${old}`)).headers.get('location')).toBe('/api/roadmap/secret-sequel')
  })
})
