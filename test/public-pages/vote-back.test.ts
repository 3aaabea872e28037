// The vote forms' `back` field (issue 28, finding 9): a value a `Location` header cannot carry (control
// characters, other non-printable or non-ASCII bytes) answered 500 "Header 'Location' has invalid
// value". Such a value, like an off-site one, is ignored: the vote counts and the answer goes back
// to the report page (tracker) or the roadmap.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestProject, TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { createReportIn, pagesWorld, postForm, putSettings, setReport } from './pages-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  ;({ t, owner, project } = await pagesWorld())
  await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_upvotes: true, publish: 'all', include_auto_filed: true })
  await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, show_upvotes: true })
})
afterEach(() => t.close())

const hostile = ['\r\nSet-Cookie: x=1', '\n', '\u0000', '\u0007', '\u007f', '\t', ' ', 'é', '\u2028', '\\evil.example', '/\\evil.example', '//evil.example']

describe('POST /tracker/{slug}/{n}/vote and /roadmap/{slug}/{n}/vote with a bad `back`', () => {
  it.each(hostile)('ignore back=/tracker/{slug}%j…: 303 to the report page, the vote counted', async (bad) => {
    const bug = await createReportIn(t, project, { title: 'Vote me' })
    await setReport(t, bug, { onRoadmap: true })
    const ip = '203.0.113.7'
    for (const back of [`/tracker/${project.slug}${bad}`, `/tracker/${project.slug}?q=${bad}`, `${bad}/tracker/${project.slug}`]) {
      const res = await postForm(t, `/tracker/${project.slug}/${bug.reportNumber}/vote`, { back }, ip)
      expect([JSON.stringify(back), res.status, res.headers.get('location'), res.headers.get('set-cookie')?.includes('x=1') ?? false]).toEqual([
        JSON.stringify(back),
        303,
        `/tracker/${project.slug}/${bug.reportNumber}`,
        false,
      ])
      const road = await postForm(t, `/roadmap/${project.slug}/${bug.reportNumber}/vote`, { back: back.replace('/tracker/', '/roadmap/') }, ip)
      expect([JSON.stringify(back), road.status, road.headers.get('location')]).toEqual([JSON.stringify(back), 303, `/roadmap/${project.slug}`])
    }
    expect((await t.request('GET', `/api/tracker/${project.slug}/bugs/${bug.reportNumber}`)).body.data.upvotes).toBe(1)
  })

  it('still follows a good back, query included', async () => {
    const bug = await createReportIn(t, project)
    const res = await postForm(t, `/tracker/${project.slug}/${bug.reportNumber}/vote`, { back: `/tracker/${project.slug}?q=lava%20x&page=2` })
    expect([res.status, res.headers.get('location')]).toEqual([303, `/tracker/${project.slug}?q=lava%20x&page=2`])
  })
})
