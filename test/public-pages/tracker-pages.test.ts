import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestProject, TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { addComment, createReportIn, getPage, pagesWorld, postForm, putSettings, setReport, voterCookieOf } from './pages-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  ;({ t, owner, project } = await pagesWorld())
})
afterEach(() => t.close())

// Every report published, as before the publish modes (those are tested in test/public/publication.test.ts).
const enable = (extra: Record<string, unknown> = {}) => putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all', include_auto_filed: true, ...extra })
const tracker = (query = '', ip?: string) => getPage(t, `/tracker/${project.slug}${query}`, ip)

/** The report numbers listed on a tracker page, in order. */
const listed = (html: string) => [...html.matchAll(/<h2><a href="\/tracker\/[^/]+\/(\d+)">/g)].map((m) => Number(m[1]))

describe('GET /tracker/{slug}', () => {
  it('answers an HTML 404 for an unknown project and while the tracker is off', async () => {
    await createReportIn(t, project)
    for (const path of ['/tracker/no-such-game', `/tracker/${project.slug}`, `/tracker/${project.slug}/1`, `/tracker/${project.slug}/report`]) {
      const res = await getPage(t, path)
      expect(res.status, path).toBe(404)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(res.body).toContain('<h1>Page not found</h1>')
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    }
  })

  it('lists public reports most upvoted first with security headers, branding, custom CSS and Open Graph tags', async () => {
    const a = await createReportIn(t, project, { title: 'Texture flicker in caves' })
    const b = await createReportIn(t, project, { title: 'Boss fight softlock' })
    await setReport(t, b, { upvotes: 7 })
    await putSettings(t, owner, project, 'branding', { company_name: 'Forge Studio', logo_url: 'https://cdn.example/logo.png', primary_color: '#aa3300' })
    await enable({ page_title: 'Known issues', page_description: 'What we are fixing', custom_css: '.report{border-width:2px}' })
    const res = await tracker()
    expect(res.status).toBe(200)
    expect(listed(res.body)).toEqual([b.reportNumber, a.reportNumber])
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    const csp = res.headers.get('content-security-policy')!
    expect(csp).not.toContain('unsafe-inline')
    // Every inline <style> is allowed by its own hash, so the custom CSS applies under the CSP.
    const styles = [...res.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!)
    expect(styles).toHaveLength(2)
    for (const css of styles) expect(csp).toContain(`'sha256-${new Bun.CryptoHasher('sha256').update(css).digest('base64')}'`)
    expect(styles[1]).toBe('.report{border-width:2px}')
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)/)
    // Titled by the page title (else the project's name), the company as the subtitle (issue 25).
    expect(res.body).toContain('<title>Known issues · Forge Studio</title>')
    expect(res.body).toContain('<meta name="description" content="What we are fixing"/>')
    expect(res.body).toContain('<meta property="og:title" content="Known issues · Forge Studio"/>')
    expect(res.body).toContain('<meta property="og:site_name" content="Forge Studio"/>')
    expect(res.body).toContain('<span class="brand">Star Forge</span>')
    expect(res.body).toContain('<hgroup><h1>Known issues</h1><p class="subtitle">Forge Studio</p></hgroup>')
    expect(res.body).toContain(`<meta property="og:url" content="http://glitchbox.test/tracker/${project.slug}"/>`)
    expect(res.body).toContain('<img src="https://cdn.example/logo.png" alt/>')
    expect(res.body).toContain('Forge Studio')
    expect(res.body).toContain('--accent:#aa3300')
    expect(res.body).toContain('<main id="main">')
  })

  it('never renders private reports, internal comments, reporter contact data, assignees or metadata', async () => {
    const pub = await createReportIn(t, project, {
      title: 'Public crash',
      description: 'Crashes on load\n--- Stack Trace ---\nat C:\\Users\\dev\\secret-path.cs:12',
      reporterName: 'Reporter Rita',
      reporterEmail: 'rita.reporter@player.example',
      playerId: 'steam-76561198000000001',
      metadata: { gpu: 'SECRET-GPU-MODEL' },
    })
    await setReport(t, pub, { assignedTo: owner.user.id })
    const hidden = await createReportIn(t, project, { title: 'Private exploit details' })
    await setReport(t, hidden, { isPrivate: true })
    await addComment(t, pub, { authorId: owner.user.id, body: 'Public reply: fix coming' })
    await addComment(t, pub, { authorId: owner.user.id, body: 'INTERNAL: caused by the loader rewrite', isInternal: true })
    await enable({ show_categories: true, show_priority: true, allow_search: true, allow_upvotes: true })
    const pages = [(await tracker()).body, (await getPage(t, `/tracker/${project.slug}/${pub.reportNumber}`)).body, (await tracker('?q=exploit')).body]
    for (const html of pages) {
      for (const secret of ['Private exploit', 'INTERNAL:', 'rita.reporter', 'Reporter Rita', 'steam-76561198000000001', 'SECRET-GPU', 'secret-path', 'olivia.owner@studio.example', 'Olivia Owner' + ' (assignee)']) {
        expect(html).not.toContain(secret)
      }
    }
    expect(pages[1]).toContain('Public reply: fix coming')
    expect(pages[1]).toContain('Crashes on load')
    expect((await getPage(t, `/tracker/${project.slug}/${hidden.reportNumber}`)).status).toBe(404)
    expect((await getPage(t, `/tracker/${project.slug}/abc`)).status).toBe(404)
  })

  it('pages 25 at a time through plain links and searches and filters through a GET form, with JavaScript off', async () => {
    for (let i = 0; i < 30; i++) await createReportIn(t, project, { title: i === 12 ? 'Zeppelin clips through the mountain' : `Ordinary bug ${i}`, category: i % 2 ? 'audio' : 'visual' })
    await enable({ allow_search: true, show_categories: true, show_status_filter: true })
    const first = await tracker()
    expect(listed(first.body)).toHaveLength(25)
    expect(first.body).toContain('Page 1 of 2')
    expect(first.body).toContain(`<a href="/tracker/${project.slug}?page=2" rel="next">`)
    expect(first.body).toContain(`<form class="filters card" method="get" action="/tracker/${project.slug}"`)
    expect(first.body).toContain('<label for="q">Search</label>')
    const second = await tracker('?page=2')
    expect(listed(second.body)).toHaveLength(5)
    expect(second.body).toContain(`<a href="/tracker/${project.slug}" rel="prev">`)
    expect(new Set([...listed(first.body), ...listed(second.body)]).size).toBe(30)
    const found = await tracker('?q=zeppelin&status=&category=')
    expect(listed(found.body)).toEqual([13])
    expect(found.body).toContain('value="zeppelin"')
    const audio = await tracker('?category=audio&page=1')
    expect(listed(audio.body)).toHaveLength(15)
    expect(audio.body).toContain('<option value="audio" selected>Audio</option>')
    // A bad filter value (an old link) is dropped, not refused.
    expect(listed((await tracker('?status=bogus')).body)).toHaveLength(25)
  })

  it('counts up to 1,000 matches ("1000+ reports") and still pages past them', async () => {
    for (let i = 0; i < 1010; i++) await createReportIn(t, project, { title: `Bug ${i}` })
    await enable()
    const first = await tracker()
    expect(first.body).toContain('1000+ reports')
    expect(first.body).not.toContain('Page 1 of')
    expect(first.body).toContain(`<a href="/tracker/${project.slug}?page=2" rel="next">`)
    const p40 = await tracker('?page=40')
    expect(listed(p40.body)).toHaveLength(25)
    expect(p40.body).toContain('rel="next"')
    const last = await tracker('?page=41')
    expect(listed(last.body)).toHaveLength(10)
    expect(last.body).not.toContain('rel="next"')
    expect(last.body).toContain('rel="prev"')
    // The API keeps its own cap: the exact total below 10,000.
    expect((await t.request('GET', `/api/tracker/${project.slug}`)).body.data.total).toBe(1010)
  }, 60_000)

  it('ignores search and filters the tracker does not allow', async () => {
    await createReportIn(t, project, { title: 'Zeppelin bug' })
    await createReportIn(t, project, { title: 'Other bug' })
    await enable()
    const res = await tracker('?q=zeppelin')
    expect(listed(res.body)).toHaveLength(2)
    expect(res.body).not.toContain('role="search"')
  })

  it('counts one vote per voter through the form, and marks the button as voted', async () => {
    const bug = await createReportIn(t, project, { title: 'Vote me' })
    await enable({ allow_upvotes: true })
    const ip = '203.0.113.9'
    // A browser's first page gives it its voter cookie; it sends it back from then on.
    const before = await tracker('', ip)
    expect(before.body).toContain('aria-pressed="false"')
    expect(before.body).toMatch(/<script src="\/public-assets\/vote\.[0-9a-f]{10}\.js" defer><\/script>/)
    const cookie = voterCookieOf(before)
    for (let i = 0; i < 2; i++) {
      const res = await postForm(t, `/tracker/${project.slug}/${bug.reportNumber}/vote`, { back: `/tracker/${project.slug}?page=1` }, ip, cookie)
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe(`/tracker/${project.slug}?page=1`)
    }
    const after = await getPage(t, `/tracker/${project.slug}`, ip, cookie)
    expect(after.headers.get('set-cookie')).toBeNull()
    expect(after.body).toContain('aria-pressed="true"')
    expect(after.body).toContain('<span class="count">1</span>')
    // Another voter sees the count but not the pressed state; an off-site `back` is not followed.
    expect((await tracker('', '198.51.100.4')).body).toContain('aria-pressed="false"')
    const offsite = await postForm(t, `/tracker/${project.slug}/${bug.reportNumber}/vote`, { back: '//evil.example/x' }, '198.51.100.4')
    expect(offsite.headers.get('location')).toBe(`/tracker/${project.slug}/${bug.reportNumber}`)
    // The JSON API and the page share the voter: the vote script sends the same cookie.
    const api = await t.request('POST', `/api/tracker/${project.slug}/bugs/${bug.reportNumber}/vote`, { ip, headers: { cookie } })
    expect(api.body.data).toEqual({ upvotes: 2, is_new: false })
  })

  it('shows counts without vote buttons when upvotes are off, and a form vote changes nothing', async () => {
    const bug = await createReportIn(t, project)
    await enable()
    const res = await tracker()
    expect(res.body).not.toContain('vote-form')
    expect(res.body).not.toContain('<script')
    expect((await postForm(t, `/tracker/${project.slug}/${bug.reportNumber}/vote`, {})).status).toBe(303)
    expect((await tracker()).body).toContain('<span class="count">0</span>')
  })
})

describe('the "Report a bug" form', () => {
  it('files through the SDK submit service and shows the report number; the key never reaches the page', async () => {
    await enable()
    const form = await getPage(t, `/tracker/${project.slug}/report`)
    expect(form.status).toBe(200)
    expect(form.body).toContain(`<form class="card" method="post" action="/tracker/${project.slug}/report" enctype="multipart/form-data"`)
    for (const label of ['Title', 'Description', 'Category']) expect(form.body).toContain(`>${label}</label>`)
    expect(form.body).not.toContain(project.apiKey)
    expect((await tracker()).body).not.toContain(project.apiKey)
    const res = await postForm(t, `/tracker/${project.slug}/report`, { title: 'Door will not open', description: 'The castle door stays shut', category: 'gameplay', email: 'pat@player.example' })
    expect(res.status).toBe(201)
    expect(res.body).toContain('Your report was filed as #1.')
    expect(res.body).not.toContain('pat@player.example')
    const team = await t.request('GET', `/api/projects/${project.slug}/bugs/1`, { token: owner.token })
    expect(team.body.data.bug).toMatchObject({ title: 'Door will not open', category: 'gameplay', reporter_email: 'pat@player.example', source: 'user' })
    const again = await postForm(t, `/tracker/${project.slug}/report`, { title: 'Door will not open', description: 'Same here' })
    expect(again.status).toBe(200)
    expect(again.body).toContain('#1')
  })

  it('shows the form again with the reason when a field is missing or wrong', async () => {
    await enable()
    const res = await postForm(t, `/tracker/${project.slug}/report`, { title: 'Only a title', description: '', email: 'not-an-email' })
    expect(res.status).toBe(400)
    expect(res.body).toContain('role="alert"')
    expect(res.body).toContain('value="Only a title"')
  })

  it('is not offered for a private project', async () => {
    const { createProject } = await import('../helpers/fixtures')
    project = await createProject(t, owner, { isPublic: false })
    await enable()
    expect((await tracker()).body).not.toContain('Report a bug</a>')
    expect((await getPage(t, `/tracker/${project.slug}/report`)).status).toBe(404)
    expect((await postForm(t, `/tracker/${project.slug}/report`, { title: 'x', description: 'y' })).status).toBe(404)
  })
})
